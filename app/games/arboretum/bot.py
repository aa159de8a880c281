import random
def bot_move(view, legal, rng: random.Random):
    return rng.choice(legal)
