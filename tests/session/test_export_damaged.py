"""`export --list` on a journal too damaged to list never tells you to run `export --list`."""

from __future__ import annotations

from tabletop.cli import main
from tests.hardening.test_inputs import new_session


def test_a_journal_too_damaged_to_list_says_what_is_left_to_try(tmp_path, capsys):
    path = tmp_path / "j.sqlite"
    session = new_session(path)
    for n in range(30):
        session.submit({"type": "pass", "player": "Ann" if n % 2 == 0 else "Ben"})
    session.journal.close()
    data = bytearray(path.read_bytes())
    for i in range(4096, 4096 + 64):              # the second page: the games' table
        data[i] ^= 0xA5
    path.write_bytes(bytes(data))
    for argv in (["export", "--journal", str(path), "--list"], ["export", "--journal", str(path)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "too damaged to list its games" in err and ".recover" in err
        assert "export --journal" not in err and "--list` shows" not in err and "Traceback" not in err
