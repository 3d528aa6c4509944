"""Built-in strategies, one module per game. Each module registers its strategies on import."""
