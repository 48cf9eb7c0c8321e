$TK convert $TK_TESTDATA/cpel/vpp-new.cpel -o /tmp/tk-golden-never-written.prof
