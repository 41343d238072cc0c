"""The board-game family: state, board geometry, golden rules, notation, views, and the rules of the base set,
which every board-game set (Prison, Paladins & Dragons) restates and builds on. A set adds data and rule modules
(see engine/prison/ and docs/architecture.md, "Adding a set"); nothing here names a set.
"""
