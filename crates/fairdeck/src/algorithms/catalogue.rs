//! The catalogue's text: where each algorithm comes from, what it does, what it costs.

use super::Growth;

/// The source articles by author, title and year, as cited by
/// [`Algorithm::sources`](super::Algorithm::sources); `docs/references.md`
/// says what each contributes. Where an article names no author or date we
/// say so rather than invent one.
const S000: &str = "Juhász, “Keverjük a kártyát” (n.d.)";
const S001: &str = "anonymous, “Shuffling a deck of cards” (2014)";
const S002: &str = "anonymous, “洗牌算法_最简单的洗牌方法” (2023)";
const S003: &str = "Florian, “关于如何评价洗牌质量的猜想” (n.d.)";
const S004: &str = "anonymous, “Mischiamo le carte” (n.d.)";
/// The source of an algorithm that none of the five articles describes.
pub const OUTSIDE: &str = "other literature (docs/references.md)";

/// One catalogue entry.
pub(crate) struct Entry {
    pub name: &'static str,
    pub sources: &'static [&'static str],
    pub description: &'static str,
    pub time: &'static str,
    pub space: &'static str,
    pub intended_uniform: bool,
    pub unbounded: bool,
    pub growth: Growth,
}

/// The entries, in the order of [`Algorithm::ALL`](super::Algorithm::ALL).
pub(crate) const ENTRIES: [Entry; 17] = [
    Entry {
        name: "fisher-yates",
        sources: &[S002, S004, S001],
        description: "Durstenfeld's in-place Fisher-Yates (1964), backward: for i from n-1 down \
            to 1, swap card i with card j, j uniform in [0, i]. One roll per step, n-1 rolls in \
            all; every order has probability exactly 1/n!.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "knuth-forward",
        sources: &[S000, S002],
        description: "Knuth's shuffle run forward: for i from 0 to n-2, swap card i with card \
            j, j uniform in [i, n-1]. It walks the permutation tree of Juhász’s “Keverjük a kártyát” one branch at a time; \
            exactly uniform.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "inside-out",
        sources: &[S001],
        description: "Grows a shuffled prefix: for i from 0 to n-1, swap card i with card j, j \
            uniform in [0, i] (the “Shuffling a deck of cards” article’s second in-place method, including its idle first \
            roll). Exactly uniform.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "fisher-yates-original",
        sources: &[S002, S004, S001],
        description: "Fisher and Yates's pencil-and-paper method (1938): pick k uniform among \
            the cards not yet struck, strike the k-th, append it to the result. Kept in a vector \
            with find and erase as in “Shuffling a deck of cards” (2014) (354 s at n = 10^6 there). Exactly uniform.",
        time: "O(n^2)",
        space: "O(n)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Quadratic,
    },
    Entry {
        name: "fisher-yates-list",
        sources: &[S001],
        description: "The same pencil-and-paper method with a linked list: walk k links from \
            the head, unlink the node (238 s at n = 10^6 in “Shuffling a deck of cards” (2014)). Exactly uniform.",
        time: "O(n^2)",
        space: "O(n)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Quadratic,
    },
    Entry {
        name: "rejection",
        sources: &[S001],
        description: "The “Shuffling a deck of cards” article’s first method: draw a card from all n, keep it if it has not \
            come up yet, otherwise draw again, until all are dealt. Exactly uniform, but the \
            number of rolls is unbounded (n*H(n) on average, the coupon collector).",
        time: "O(n log n) expected",
        space: "O(n)",
        intended_uniform: true,
        unbounded: true,
        growth: Growth::LinearLog,
    },
    Entry {
        name: "random-insertion",
        sources: &[S000],
        description: "Take the top card and insert it after a uniformly chosen card (1..n), k \
            times; Juhász (“Keverjük a kártyát”) derives k = ceil(n*H(n)) (130 rounds for 32 cards, 236 for 52). \
            Only approximately uniform: n^k paths cannot split evenly over n! orders.",
        time: "O(n^2 log n)",
        space: "O(1)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::QuadraticLog,
    },
    Entry {
        name: "random-insertion-stopping",
        sources: &[S000],
        description: "Random insertion stopped by the argument of Juhász’s “Keverjük a kártyát”, made exact: insert \
            until the original bottom card reaches the top, then once more. A strong uniform \
            time (Aldous-Diaconis 1986): exactly uniform, with an unbounded number of rolls \
            (n*H(n) on average).",
        time: "O(n^2 log n) expected",
        space: "O(1)",
        intended_uniform: true,
        unbounded: true,
        growth: Growth::QuadraticLog,
    },
    Entry {
        name: "sort-keys",
        sources: &[S000],
        description: "Give each card a random priority in [1, n^3], then sort cards and \
            priorities together by minimum selection, as Juhász’s “Keverjük a kártyát” does. Priorities differ with \
            probability >= 1 - 1/n; ties are settled by the unstable selection sort's swaps, \
            so the result is not exactly uniform.",
        time: "O(n^2)",
        space: "O(n)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::Quadratic,
    },
    Entry {
        name: "sort-keys-fast",
        sources: &[S000, S004],
        description: "The same priorities in [1, n^3], sorted with an O(n log n) stable merge \
            sort (the “Mischiamo le carte” article’s naive method). Tied cards keep their original order, a small \
            bias towards the starting order.",
        time: "O(n log n)",
        space: "O(n)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::LinearLog,
    },
    Entry {
        name: "reverse-insertion",
        sources: &[S000],
        description: "Insertion sort with the search replaced by chance: for i from 2 to n, \
            take card i out, pick a place uniformly in [1, i], shift the cards from there up \
            and put it there. Exactly uniform, but the shifts cost O(n^2).",
        time: "O(n^2)",
        space: "O(1)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Quadratic,
    },
    Entry {
        name: "random-transpositions",
        sources: &[S003],
        description: "Florian’s “关于如何评价洗牌质量的猜想” mess: n times, swap two distinct positions drawn uniformly \
            (both redrawn while they coincide). Far too few swaps to mix (about n ln n / 2 are \
            needed), and the output always has the parity of n: half the orders never appear.",
        time: "O(n) expected",
        space: "O(1)",
        intended_uniform: false,
        unbounded: true,
        growth: Growth::Linear,
    },
    Entry {
        name: "naive-swap",
        sources: &[S000],
        description: "Knuth's loop with the natural mistake that Juhász’s “Keverjük a kártyát” warns about: for i from 0 \
            to n-1, swap card i with card j drawn from the whole [0, n-1]. n^n equally likely \
            paths, which n! does not divide for n >= 3 (27 paths over 6 orders): biased.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "sattolo",
        sources: &[S000],
        description: "Knuth's loop with [i+1, n-1] instead of [i, n-1], so every card moves \
            (Sattolo 1986). As Juhász’s “Keverjük a kártyát” notes, the first card never stays in place. It makes only the \
            (n-1)! single-cycle orders, each equally likely: a uniform cyclic permutation, not \
            a shuffle.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "asf-poker",
        sources: &[OUTSIDE],
        description: "The 1999 ASF Software online-poker shuffle (Arkin et al., \"How we \
            learned to cheat at online poker\"), generalised to n: for ctr from 1 to n, swap \
            card ctr with card random(n-1)+1, in [1, n-1]; position n is never a target. \
            Biased: (n-1)^n paths, and some orders never appear.",
        time: "O(n)",
        space: "O(1)",
        intended_uniform: false,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "knuth-deal",
        sources: &[S000],
        description: "Deal k of n: the forward Knuth shuffle stopped after k steps; the first k \
            cards are the hand. Every sequence of k distinct cards is equally likely (here, as \
            a shuffle, k = n).",
        time: "O(n + k)",
        space: "O(n)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Linear,
    },
    Entry {
        name: "hash-deal",
        sources: &[S000],
        description: "Deal k of n with a hash table of (position, card) pairs instead of an \
            array, for n >> k (lottery numbers): the Knuth deal on a virtual array, as Juhász, “Keverjük a kártyát” \
            gives it. Uniform like the Knuth deal; n may be up to 2^64 - 1.",
        time: "O(k) expected",
        space: "O(k)",
        intended_uniform: true,
        unbounded: false,
        growth: Growth::Linear,
    },
];

/// What the Python version of the Durstenfeld-Knuth shuffle in “Mischiamo le carte” does.
///
/// The snippet sets `i = len(cards)`, then while `i > 1`: `j = randint(0, i)`,
/// `i = i - 1`, swap `cards[j]` and `cards[i]`. Python's `randint` includes
/// both ends, and `j` is drawn *before* `i` is decremented, so `j` ranges
/// over `[0, i_old] = [0, i + 1]`: two values too many.
pub const PYTHON_SNIPPET_BUG: &str = "The “Mischiamo le carte” article’s Python knuth(cards) draws j = randint(0, i) \
    before decrementing i, and randint includes both ends, so j is uniform in [0, i+1] for the \
    swap of cards[j] and cards[i] (i already decremented). On the first pass i+1 = len(cards): \
    with probability 1/(len+1) j == len(cards) and evaluating cards[j] raises IndexError (list \
    index out of range) before anything is swapped. When that does not happen, the later passes \
    can never fail (j <= i+1 <= len-1), but j may be i+1, a position already finished, so the \
    shuffle is biased for 3 or more cards: of the (len+1)!/2 equally likely paths, len*len!/2 \
    run through, and walking all of them gives unequal counts (checked for 3, 4 and 5 cards; \
    at 4 cards some orders are 4 times as likely as others). For 3 cards: IndexError with probability 1/4; \
    otherwise 9 paths give 012, 021 and 201 with probability 2/9 each and 102, 120, 210 with \
    1/9. For 52 cards it crashes once in 53 runs. Fix: j = randint(0, i - 1) (or \
    randrange(i)) before i = i - 1, which is fisher-yates.";
