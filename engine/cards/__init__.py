"""Cards (rules §7, §8): card data, the condition and effect language, live effects and their hooks."""
