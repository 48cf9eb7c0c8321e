"""tracekit.sql(): the schema of `tracekit sql` from Python, checked
against the CLI's own reading of the same files (stats, tracekit sql)."""
import csv
import io
from collections import Counter

import pytest

from conftest import stats_counts, data_path, tk
import tracekit

PERF = ("perf", "pdc", "with-callchain.perf.data")
CTF = ("ctf", "babeltrace", "succeed", "wk-heartbeat-u")


def cli_sql(path, query):
    out = tk("sql", "-q", "--format", "csv", path, query).stdout
    rows = list(csv.reader(io.StringIO(out)))
    return rows[0], rows[1:]


@pytest.mark.parametrize("parts", [PERF, CTF])
def test_counts_per_event_equal_stats(parts):
    path = data_path(*parts)
    rows = tracekit.sql(path, "SELECT name, count(*) FROM event GROUP BY name")
    assert Counter(dict(rows)) == stats_counts(path)


def test_rows_and_dataframe_equal_cli():
    path = data_path(*PERF)
    q = ("SELECT t.name, f.name AS sym, count(*) AS n FROM sample s "
         "JOIN thread t USING (utid) JOIN callsite c ON c.id = s.callsite_id "
         "JOIN stack_frame f ON f.id = c.frame_id GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2")
    names, want = cli_sql(path, q)
    rows = tracekit.sql(path, q)
    assert rows and [[str(v) if v is not None else "" for v in r] for r in rows] == want
    df = tracekit.sql(path, q, pandas=True)
    assert list(df.columns) == names == ["name", "sym", "n"]
    assert df["n"].sum() == tracekit.sql(path, "SELECT count(*) FROM sample")[0][0]


def test_several_inputs_and_types():
    a, b = data_path(*PERF), data_path(*CTF)
    rows = tracekit.sql([a, b], "SELECT file, count(*) FROM event GROUP BY file ORDER BY file")
    assert dict(rows) == {a: sum(stats_counts(a).values()), b: sum(stats_counts(b).values())}
    (ts, cpu, name, args), = tracekit.sql(b, "SELECT ts, cpu, name, args FROM event LIMIT 1")
    assert isinstance(ts, int) and isinstance(name, str) and args.startswith("{")


def test_damaged_file_raises_reader_error_with_offset():
    path = data_path("perf", "quipper", "perf.data.piped.corrupted.zero_size_sample-3.2")
    with pytest.raises(tracekit.Error) as e:
        tracekit.sql(path, "SELECT count(*) FROM event")
    assert e.value.file == path
    assert e.value.offset == 0xbfd0
    assert "record size 0" in e.value.message
    assert "offset 0xbfd0" in tk("sql", path, "SELECT count(*) FROM event", check=False).stderr


def test_bad_query_and_missing_file():
    path = data_path(*CTF)
    with pytest.raises(tracekit.Error, match="syntax error"):
        tracekit.sql(path, "SELEC 1")
    with pytest.raises(tracekit.Error, match="one statement"):
        tracekit.sql(path, "SELECT 1; SELECT 2")
    with pytest.raises(tracekit.Error) as e:
        tracekit.sql("/nonexistent/perf.data", "SELECT count(*) FROM event")
    assert "/nonexistent/perf.data" in str(e.value)
