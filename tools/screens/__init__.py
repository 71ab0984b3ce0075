"""The pictures of every screen in docs/screens: python tools/screens/pictures.py [--check].

    pictures       renders every scene's shots to PNG, or checks the ones in docs/screens
    scenes         the scripted scenes: each plays a game (or part of one) and takes pictures
    troublescenes  the scenes outside a game's play: a lost save, safe mode, the error screen
    rig            the tray on the decoding panel that takes the pictures (Rig, Shot)
"""
