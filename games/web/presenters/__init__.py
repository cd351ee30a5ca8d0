"""What the pages draw, built on the point-of-view value (``games.pov``): the board, the move list and the
replay's words (every move by its cell name), the game page's context, the lobby's rows. No HTML here: the
templates draw it."""
