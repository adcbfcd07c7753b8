"""Block seeds and the dealer's blocks (cpstats.cards.blocks): block i's SeedSequence child drives the
kernels' SFC64 stream exactly as numpy's, and the decks it shuffles are uniform."""

import numpy as np


def test_kernel_generator_is_numpy_sfc64():
    """The kernels' SFC64 recurrence gives numpy's stream for the block's SeedSequence child."""
    from cpstats.cards import _deal_kernel
    from cpstats.cards.blocks import block_seed, block_state, root_seed

    root = root_seed(99)
    state = block_state(root, 7)
    ours = np.empty(5000, dtype=np.uint64)
    _deal_kernel.sfc64_fill(state, ours)
    assert np.array_equal(ours, np.random.SFC64(block_seed(root, 7)).random_raw(5000))
    assert np.array_equal(block_seed(root, 7).generate_state(4), root.spawn(8)[7].generate_state(4))


def test_deals_are_uniform():
    """Each card lands in each hand with probability 1/4, and two given cards share a hand with
    probability 12/51; chi-square and z tolerances at 5 sigma."""
    from cpstats.cards.blocks import root_seed, shuffled_decks

    n = 40_000
    decks = shuffled_decks(root_seed(5), 0, n)
    assert (np.sort(decks, axis=1) == np.arange(52)).all()
    hand_of = np.empty_like(decks)
    rows = np.arange(n)[:, None]
    hand_of[rows, decks] = np.arange(52) // 13  # hand holding each card
    counts = np.stack([np.bincount(hand_of[:, c], minlength=4) for c in range(52)])
    chi2 = ((counts - n / 4) ** 2 / (n / 4)).sum()
    dof = 52 * 3
    assert abs(chi2 - dof) < 5 * np.sqrt(2 * dof)
    for a, b in [(0, 1), (0, 51), (17, 30), (8, 9)]:
        together = (hand_of[:, a] == hand_of[:, b]).mean()
        p = 12 / 51
        assert abs(together - p) < 5 * np.sqrt(p * (1 - p) / n)
