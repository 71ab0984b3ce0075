"""The generators of what the repository holds that a program writes, each with --check.

    font          the glyph data in firmware/dicetray/font.py, from tools/fontsrc.txt
    dicetables    firmware/dicetray/firsttable.py, the table of the players still to throw
    package_json  package.json, the mip manifest of firmware/
"""
