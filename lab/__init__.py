"""The lab: tools built on the engine's public names only (``from engine import ...``).

- `lab.bots`: players (random, greedy, MCTS) behind one interface;
- `lab.selfplay`: bot-against-bot series with results tables;
- `lab.fuzz`: random games that check every engine invariant, with shrinking;
- `lab.rl`: Gymnasium and PettingZoo environments (numpy, optional extra ``rl``).
"""
