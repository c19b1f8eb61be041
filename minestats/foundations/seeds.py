"""The one seed vocabulary of the library and the command line.

Every public function that draws random numbers takes ``seed``:

- an int (non-negative): ``numpy.random.SeedSequence(seed)``;
- a string of decimal digits (``"42"``): the int it spells, as on the command line;
- a child's label ``"ROOT/i/j..."`` (a seed ``ROOT`` as here, then ``/`` and
  decimal spawn keys): child ``j`` of child ``i`` of ``ROOT``'s sequence, so the
  label a result records gives its stream back. Any string of that form is read so:
  ``"2026/11/29"`` is child 29 of child 11 of 2026; write a date as ``"2026-11-29"``;
- any other non-empty string, such as a date (``"2026-11-29"``): the int read
  big-endian from the SHA-256 digest of its UTF-8 bytes, the same on every machine,
  so a "daily board" or a named run is the same everywhere;
- a `numpy.random.SeedSequence`, used as it is (a child keeps its spawn key);
- a `numpy.random.Generator`, asked for 126 random bits, recorded as one int;
- None: fresh entropy from the operating system.

A result records the *label* of the seed it used (`resolve_seed`): the int, the
string, ``"entropy/key..."`` for a spawned child, or the fresh entropy drawn for
None, so every run, seeded or not, can be repeated by passing that label back.

On the command line ``--seed 42`` is the int 42 and ``--seed 2026-11-29`` the
string (`seed_from_text`), so the command and the library give the same numbers.
"""

from __future__ import annotations

import hashlib

import numpy as np

from minestats.foundations.validation import quoted

__all__ = ["MAX_SEED_CHARACTERS", "as_generator", "as_seed_sequence", "child_label",
           "resolve_seed", "seed_from_text", "seed_label"]

MAX_SEED_CHARACTERS = 1000
"""The longest ``--seed`` the command line reads (a 1,000-digit integer is ample entropy)."""

_SEED_KINDS = ("a non-negative integer, a non-empty string, a SeedSequence, a Generator "
               "or None")


def _string_entropy(text: str) -> int:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest, "big")


def _split_child_label(text: str) -> tuple[str, tuple[int, ...]]:
    """Split ``"ROOT/i/j"`` into ``("ROOT", (i, j))``; text without such keys stays whole.

    Examples
    --------
    >>> _split_child_label("42/3/0"), _split_child_label("2026-11-29")
    (('42', (3, 0)), ('2026-11-29', ()))
    >>> _split_child_label("runs/a"), _split_child_label("/3")
    (('runs/a', ()), ('/3', ()))
    """
    keys: list[int] = []
    root = text
    while "/" in root:
        head, _, tail = root.rpartition("/")
        if not (head and tail.isascii() and tail.isdigit()):
            break
        keys.insert(0, int(tail))
        root = head
    return root, tuple(keys)


def as_seed_sequence(seed) -> np.random.SeedSequence:
    """Turn a seed (see the module notes) into the SeedSequence a run draws from.

    ``None`` draws fresh entropy from the OS, which the returned sequence records so
    the run can be repeated. A Generator is asked for 126 random bits, so the same
    seeded Generator gives the same sequence. A child's label ``"ROOT/i"`` gives
    back child ``i`` of ``ROOT``: the label `seed_label` recorded repeats the run.

    Examples
    --------
    >>> as_seed_sequence(42).entropy
    42
    >>> as_seed_sequence(None).entropy > 0
    True
    >>> hex(as_seed_sequence("2026-11-29").entropy)[:12]  # `printf 2026-11-29 | sha256sum`
    '0x86009cc361'
    >>> as_seed_sequence("42/3").spawn_key == np.random.SeedSequence(42).spawn(4)[3].spawn_key
    True
    >>> as_seed_sequence("42").entropy, as_seed_sequence(np.random.default_rng(1)).entropy > 0
    (42, True)
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        high, low = (int(part) for part in seed.integers(0, 2**63, size=2))
        return np.random.SeedSequence(high << 63 | low)  # one int: a label that repeats it
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, str) and seed.isascii() and seed.isdigit():
        return np.random.SeedSequence(int(seed))
    if isinstance(seed, str) and seed.startswith("["):
        # what `seed_label` records for a SeedSequence built from a list of ints
        raise ValueError(f"seed ({quoted(seed)}) is the label of a SeedSequence with list "
                         "entropy: pass that SeedSequence itself to repeat it")
    if isinstance(seed, str) and seed:
        root, keys = _split_child_label(seed)
        if keys:
            parent = as_seed_sequence(seed_from_text(root))
            return np.random.SeedSequence(parent.entropy, spawn_key=(*parent.spawn_key, *keys))
        return np.random.SeedSequence(_string_entropy(seed))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed ({quoted(seed)}) must be {_SEED_KINDS}")
    return np.random.SeedSequence(int(seed))


def as_generator(seed) -> np.random.Generator:
    """Return the Generator to draw from: a Generator itself (its stream goes on), or a new one.

    For an int this is ``numpy.random.default_rng(seed)``; strings and None are read
    as in `as_seed_sequence`.

    Examples
    --------
    >>> int(as_generator(3).integers(100)) == int(np.random.default_rng(3).integers(100))
    True
    >>> stream = np.random.default_rng(0)
    >>> as_generator(stream) is stream
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(as_seed_sequence(seed))


_DEFAULT_POOL_SIZE = np.random.SeedSequence(0).pool_size


def seed_label(seed_sequence: np.random.SeedSequence):
    """Return the value to record for a SeedSequence: its entropy, and spawn key if any.

    Examples
    --------
    >>> seed_label(np.random.SeedSequence(42))
    42
    >>> seed_label(np.random.SeedSequence(42, spawn_key=(3,)))
    '42/3'
    """
    entropy = seed_sequence.entropy
    if not seed_sequence.spawn_key:
        return entropy
    return "/".join(str(part) for part in (entropy, *seed_sequence.spawn_key))


def resolve_seed(seed) -> tuple[np.random.SeedSequence, int | str]:
    """Return the SeedSequence a run draws from, and the label its result records.

    Parameters
    ----------
    seed : int, str, numpy.random.SeedSequence, numpy.random.Generator or None
        See the module notes. A string is recorded as itself; anything else by
        `seed_label` of its sequence (None: the fresh entropy drawn).

    Returns
    -------
    seed_sequence : numpy.random.SeedSequence
    label : int or str
        Passed back as ``seed`` (an int or a string label), it gives the same run;
        a label ``"entropy/i"`` stands for ``SeedSequence(entropy, spawn_key=(i,))``.

    Examples
    --------
    >>> sequence, label = resolve_seed("2026-11-29")
    >>> label, sequence.entropy == as_seed_sequence("2026-11-29").entropy
    ('2026-11-29', True)
    >>> resolve_seed(7)[1], resolve_seed(np.random.SeedSequence(7, spawn_key=(2,)))[1]
    (7, '7/2')
    >>> fresh, label = resolve_seed(None)
    >>> resolve_seed(label)[0].entropy == fresh.entropy
    True
    """
    sequence = as_seed_sequence(seed)
    if isinstance(seed, str):
        return sequence, seed
    _check_repeatable(sequence)
    return sequence, seed_label(sequence)


def _check_repeatable(sequence: np.random.SeedSequence) -> None:
    """Refuse a SeedSequence that its recorded label would not give back.

    A label records the entropy and the spawn key; a sequence with another pool size,
    or with a list of ints as its entropy, would be recorded as a seed that starts a
    different run, so it is refused before the run starts.
    """
    if sequence.pool_size != _DEFAULT_POOL_SIZE:
        raise ValueError(f"seed (a SeedSequence with pool_size={sequence.pool_size}) cannot be "
                         f"recorded so that it repeats: its label keeps only the entropy and "
                         f"spawn key, which give pool_size={_DEFAULT_POOL_SIZE}; pass an int, "
                         f"a string or a SeedSequence with the default pool size")
    if not isinstance(sequence.entropy, int | np.integer):
        raise ValueError(f"seed (a SeedSequence with entropy {quoted(sequence.entropy)}) cannot "
                         f"be recorded so that it repeats: pass an int or a string, or a "
                         f"SeedSequence with one int of entropy")


def child_label(label, index: int) -> str:
    """Return the label of child ``index`` of a run labelled ``label``: ``"label/index"``.

    Examples
    --------
    >>> child_label(42, 3), child_label("2026-11-29", 0)
    ('42/3', '2026-11-29/0')
    """
    return f"{label}/{index}"


def seed_from_text(text: str) -> int | str:
    """Read a ``--seed`` of the command line: decimal digits are an int, anything else a string.

    So ``--seed 42`` seeds exactly as ``seed=42`` does in the library, and
    ``--seed 2026-11-29`` as ``seed="2026-11-29"``.

    Examples
    --------
    >>> seed_from_text("42"), seed_from_text("2026-11-29")
    (42, '2026-11-29')
    >>> seed_from_text("-3")
    Traceback (most recent call last):
    ...
    ValueError: seed (-3) must be a non-negative integer or a string
    """
    text = text.strip()
    if len(text) > MAX_SEED_CHARACTERS:
        raise ValueError(f"seed ({text[:12]}..., {len(text):,} characters) must have at most "
                         f"MAX_SEED_CHARACTERS = {MAX_SEED_CHARACTERS:,} characters")
    if text.isascii() and text.isdigit():
        return int(text)
    if not text:
        raise ValueError("seed must not be empty")
    if text[0] in "+-" and text[1:].isascii() and text[1:].isdigit():
        # surely meant as a number, and a negative one cannot seed
        raise ValueError(f"seed ({text}) must be a non-negative integer or a string")
    return text
