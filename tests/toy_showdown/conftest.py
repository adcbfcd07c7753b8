"""pytest collects nothing here, and leaves the toy game unregistered: pytest loads this file as
``toy_showdown.conftest``, which imports the package, and importing the package registers the
game (as importing a real game's package does). The registry is global, so the game is taken out
again at once; the tests that play it register it only while they run
(``helpers.toy.toy_registered``), so no other test sees a third game."""

import toy_showdown
from cpstats.engine.registry import unregister_game

unregister_game(toy_showdown.GAME.name)

collect_ignore_glob = ["*.py"]
