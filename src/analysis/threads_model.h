/* Moved to src/context/ (the model context owns threads, maps and symbols);
 * this forward stays while other branches still include the old path. */
#include "context/threads_model.h"
