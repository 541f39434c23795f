"""The processes the capacity benchmark (bench/bench_capacity.py) starts besides the real bot.

`null_bot`: the floor, a bare discord.py client that answers every interaction with one fixed
message; `profiled_bot`: ``python -m bot`` with an optional cProfile switched by signals.
"""
