# placeholder; replaced below
