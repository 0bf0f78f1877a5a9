"""RL reproductions: rl-baselines3-zoo's recipes on kusari.rl's agents; each module states its recipe and target."""
# LunarLander needs Box2D too; '.[rl,box2d]' brings every RL reproduction's dependencies
EXTRA = "rl,box2d"
