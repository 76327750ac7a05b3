"""A demo's journal folder: new each time, and the oldest pruned so /tmp does not fill up."""

import os

from tabletop.table.demo_journals import PREFIX, new_demo_journal


def test_each_demo_gets_a_new_folder_and_only_the_newest_are_kept(tmp_path):
    made = []
    for age in range(5):
        journal = new_demo_journal(tmp_path, keep=3)
        journal.write_bytes(b"x")
        os.utime(journal.parent, (1_000_000 + age, 1_000_000 + age))
        made.append(journal.parent)
    kept = sorted(p for p in tmp_path.iterdir() if p.name.startswith(PREFIX))
    assert sorted(made[-3:]) == kept


def test_other_folders_in_the_temporary_directory_are_left_alone(tmp_path):
    mine = tmp_path / "not-a-demo"
    mine.mkdir()
    (tmp_path / (PREFIX + "file")).write_text("a file, not a folder")
    for _ in range(3):
        new_demo_journal(tmp_path, keep=1)
    assert mine.exists() and (tmp_path / (PREFIX + "file")).exists()
    assert len([p for p in tmp_path.iterdir() if p.is_dir() and p.name.startswith(PREFIX)]) == 1
