# ruff: noqa: F821  (include, package, module: the manifest API MicroPython runs this with)
# A MicroPython manifest: the board's own frozen modules plus the dice tray's package, compiled
# into the firmware (tools/build_firmware.sh builds it; see the README). main.py is not frozen:
# a frozen main.py would run instead of the one on flash and could not be replaced.
# MicroPython runs this file with the folder it is in as the current directory.
import os
import sys
import tempfile
from pathlib import Path

include("$(PORT_DIR)/boards/manifest.py")
package("dicetray", base_path="../../firmware")

# The sources' build id, frozen as the module dicetray_build: tools/flash.sh reads it from the
# board to know whether the .mpy files it would copy are what the firmware already holds.
sys.path.insert(0, os.path.abspath(".."))
try:
    from flashkit.frozenid import MODULE, id_module, source_id
finally:
    sys.path.pop(0)
build_id = source_id(Path("../../firmware").resolve())
gen = os.path.join(tempfile.gettempdir(), "dicetray-frozen-" + build_id)
os.makedirs(gen, exist_ok=True)
source = Path(gen, MODULE + ".py")
if not source.is_file() or source.read_text() != id_module(build_id):  # unchanged: no rebuild
    source.write_text(id_module(build_id))
module(MODULE + ".py", base_path=gen)
