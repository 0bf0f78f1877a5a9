from kusari.rl.explorers import Greedy


def test_returns_the_greedy_action():
    explorer = Greedy()
    assert explorer.select_action(0, lambda: 4) == 4
    assert repr(explorer) == "Greedy()"
