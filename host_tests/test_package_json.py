"""The mip manifest lists exactly the firmware's files, each at its place on the Pico."""

import json
import os

from make import package_json as make_package_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_package_json_is_up_to_date():
    with open(os.path.join(ROOT, "package.json")) as f:
        assert f.read() == make_package_json.text(), "run python tools/make/package_json.py"


def test_every_url_is_a_firmware_file_and_every_firmware_file_is_listed():
    with open(os.path.join(ROOT, "package.json")) as f:
        urls = json.load(f)["urls"]
    on_disk = set()
    for folder, _, files in os.walk(os.path.join(ROOT, "firmware")):
        for name in files:
            if name.endswith(".py"):
                on_disk.add(os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/"))
    assert {src for _, src in urls} == on_disk
    for dest, src in urls:
        assert src == "firmware/" + dest and os.path.isfile(os.path.join(ROOT, src))
    assert ["main.py", "firmware/main.py"] in urls
