//! `fairdeck.Generator`: numpy's `Generator` methods, exactly uniform and
//! keyed like the CLI.

use numpy::PyUntypedArray;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use fairdeck_report::random::KeyEntropy;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};
use sha2::{Digest, Sha256};

use crate::arrays::{
    is_plain_array, numpy, shuffle_array, shuffle_list, shuffle_masked, shuffle_sequence,
    shuffled_range_array,
};
use crate::boundary::guard;
use crate::convert::{Truthy, normalize_axis, to_count, to_u64, type_name, value_error};
use crate::deal::{DealArgs, deal};
use crate::draws::{Pick, choice, distinct, to_array};
use crate::floats;
use crate::integers::integers;
use crate::rows::{along, other_axis, permuted};
use crate::seed::Key;
use crate::stream::{Stream, Threads};
use crate::turns::Turns;

/// The exact core of ``fairdeck.Generator`` (``python/fairdeck/generator.py``):
/// the key, the stream and fairdeck's own methods. ``fairdeck.Generator``
/// is a ``numpy.random.Generator`` holding one of these; its bit generator
/// (``generator_bits.rs``) hands numpy the same stream.
///
/// ``GeneratorCore(seed=None, generator="chacha20")``: ``seed`` as the
/// CLI's ``--seed`` (see ``fairdeck.Generator``). The first call on a fresh
/// core gives what the CLI gives for the same seed; later calls continue
/// the stream. Every draw is exact: bounded integers by Lemire's rejection
/// method, never ``%`` or floating point. Calls take turns, one at a time
/// from start to end (a call that comes back into the same generator from
/// a callback raises ``RuntimeError``).
#[pyclass(
    name = "GeneratorCore",
    module = "fairdeck._fairdeck",
    frozen,
    subclass
)]
pub struct Generator {
    pub(crate) key: Key,
    /// Shared with the bit generator numpy draws from (`generator_bits.rs`).
    pub(crate) stream: Arc<Stream>,
    /// Children spawned so far (the next child's index), shared with the
    /// bit generator's `spawn`.
    pub(crate) spawned: AtomicU64,
    /// One call at a time.
    turns: Turns,
}

impl Generator {
    /// A generator of `key` on `stream` that has spawned `spawned` children.
    fn from_parts(key: Key, stream: Stream, spawned: u64) -> Self {
        Generator {
            key,
            stream: Arc::new(stream),
            spawned: AtomicU64::new(spawned),
            turns: Turns::default(),
        }
    }

    /// Runs the call `what` in this generator's turn, a panic (a bug)
    /// becoming a `RuntimeError` (see `boundary::guard`).
    fn call<T>(&self, py: Python<'_>, what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
        let _turn = self.turns.take(py)?;
        guard(what, f)
    }
}

#[pymethods]
impl Generator {
    #[new]
    #[pyo3(signature = (seed=None, generator="chacha20"))]
    fn new(seed: Option<&Bound<'_, PyAny>>, generator: &str) -> PyResult<Self> {
        let kind: fairdeck::rng::Generator = generator.parse().map_err(value_error)?;
        let key = Key::from_arg(seed)?;
        Ok(Generator::from_parts(key, Stream::new(&key.seed, kind), 0))
    }

    /// The 256-bit key as 64 hex digits: ``Generator(seed)`` replays this generator.
    #[getter]
    fn seed(&self) -> String {
        self.key.seed.to_hex()
    }

    /// The generator's name: ``"chacha20"`` or ``"xoshiro256pp"``.
    #[getter]
    fn generator(&self) -> &'static str {
        self.stream.kind.name()
    }

    /// ``copy.copy(g)``: a generator in exactly ``g``'s state (same key,
    /// same place in the stream); the two draw independently from then on,
    /// the same values in the same order.
    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        self.call(py, "copy", || {
            let stream = self.stream.duplicate(&self.key.seed);
            let spawned = self.spawned.load(Ordering::Relaxed);
            Ok(Generator::from_parts(self.key, stream, spawned))
        })
    }

    /// ``copy.deepcopy(g)``: as ``copy.copy`` (a generator holds no Python objects).
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__copy__(py)
    }

    /// Pickling: the key, the generator, where the key came from, the place
    /// in the stream (ChaCha's word offset, or xoshiro256++'s four state
    /// words) and the spawn count; unpickled, the generator continues
    /// exactly where this one is.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let turn = self.turns.take(py)?;
        let xoshiro = self.stream.xoshiro_state();
        let spawned = self.spawned.load(Ordering::Relaxed);
        let position = match (self.stream.position(), xoshiro) {
            (Some(p), _) => p,
            (None, Some(_)) => 0,
            (None, None) => {
                return Err(PyTypeError::new_err(
                    "this generator's state cannot be read",
                ));
            }
        };
        let restore = py
            .import("fairdeck._fairdeck")?
            .getattr("_restore_generator")?;
        let args = (
            self.key.seed.to_hex(),
            self.stream.kind.name(),
            self.key.entropy.origin,
            self.key.entropy.bits,
            position,
            spawned,
            xoshiro,
        );
        drop(turn);
        Ok((restore, args.into_pyobject(py)?))
    }

    /// Names the generator, never its key: a logged repr must not give
    /// away the deals (``.seed`` gives the key to whoever asks for it).
    fn __repr__(&self) -> String {
        format!("GeneratorCore(generator='{}')", self.stream.kind.name())
    }

    /// Shuffles ``x`` in place, uniformly over all n! orders, and returns None.
    ///
    /// ``x`` is a numpy array of any dtype (numbers, strings, objects,
    /// structured records), shuffled along its first axis, or a Python list.
    /// A masked array (``numpy.ma``) has its data and its mask moved by the
    /// same permutation (the order of an ``int64`` array of its length),
    /// as numpy does.
    /// Arrays whose items are 1, 2, 4, 8 or 16 bytes, contiguous and
    /// aligned, are shuffled in their own memory without a copy and without
    /// the GIL (except object arrays); strided arrays are shuffled through
    /// a copy; other item sizes through an index permutation.
    ///
    /// ``threads=None`` runs the sequential Fisher–Yates shuffle on the
    /// generator's stream: the order the Rust library's ``shuffle`` gives a
    /// slice of the same item size, and ``fairdeck deal`` gives its deck.
    /// ``threads=k`` runs the parallel bucket shuffle on k threads, keyed by
    /// 32 bytes of the stream: the same order for every k.
    ///
    /// O(n) time; O(1) extra memory up to 64 MiB (``threads=k``: 8 MiB), ``n * (1 + itemsize)``
    /// bytes beyond.
    ///
    /// ``axis=k`` shuffles the slices along axis k of an array instead (one
    /// exact permutation of ``x.shape[k]``, applied in place), as numpy's
    /// ``shuffle(x, axis)``; a list takes axis 0 only. Other mutable
    /// sequences (a ``bytearray``, an ``array.array``) are shuffled by
    /// assigning their items in the order of ``permutation(len(x))``.
    #[pyo3(signature = (x, axis=0, threads=None))]
    fn shuffle(
        &self,
        x: &Bound<'_, PyAny>,
        axis: isize,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        self.call(x.py(), "shuffle", || {
            let threads = Threads::from_arg(threads)?;
            if axis == 0 && is_plain_array(x) {
                // The common case first: a plain ndarray along axis 0.
                return shuffle_array(x.cast::<PyUntypedArray>()?, &self.stream, threads);
            }
            if let Some(axis) = other_axis(x, axis)? {
                let taken = along(x, axis, &self.stream, threads)?;
                x.set_item(x.py().Ellipsis(), taken)?;
                return Ok(());
            }
            if shuffle_masked(x, &self.stream, threads)? {
                return Ok(());
            }
            if let Ok(arr) = x.cast::<PyUntypedArray>() {
                return shuffle_array(arr, &self.stream, threads);
            }
            if let Ok(list) = x.cast::<PyList>() {
                return shuffle_list(list, &self.stream, threads);
            }
            if x.hasattr("__len__")? && x.hasattr("__setitem__")? {
                return shuffle_sequence(x, &self.stream, threads);
            }
            Err(PyTypeError::new_err(format!(
                "shuffle() takes a numpy array or a mutable sequence, not {} (shuffle a list(x) or np.array(x))",
                type_name(x)
            )))
        })
    }

    /// A shuffled copy: for an integer n, the numbers 0..n-1 in random order
    /// (``int64``); for an array (or anything ``numpy.array`` accepts), a
    /// copy shuffled along its first axis. ``x`` itself is not changed.
    ///
    /// ``permutation(n)`` is ``shuffle`` of ``arange(n)``: its order is the
    /// order every 8-byte array of length n gets from the same stream.
    /// O(n) time and memory.
    ///
    /// ``axis=k`` permutes the slices along axis k of an array instead, as
    /// numpy's ``permutation(x, axis)`` (ignored for an integer ``x``). A
    /// numpy integer ``x`` gives the dtype of numpy's ``arange(x)``
    /// (``float64`` for a ``uint64``); an ``x`` too big for any array is a
    /// ``ValueError``.
    #[pyo3(signature = (x, axis=0, threads=None))]
    fn permutation<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        axis: isize,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "permutation", || {
            let threads = Threads::from_arg(threads)?;
            let np = numpy(py)?;
            let is_int = x.is_instance_of::<PyInt>();
            if is_int || x.is_instance(&np.getattr("integer")?)? {
                // numpy's `arange(n)`: a bool is 0 or 1, below 0 is empty.
                // Beyond any array (numpy returns an empty array for 2**63,
                // a bug): ValueError, numpy's error for 2**64.
                let n = usize::try_from(to_count(x, "n")?.max(0)).map_err(|_| {
                    PyValueError::new_err(format!(
                        "permutation: array is too big ({x} items is more than any array can hold)"
                    ))
                })?;
                let shuffled = shuffled_range_array(py, n, &self.stream, threads)?;
                if is_int {
                    return Ok(shuffled);
                }
                // A numpy integer gets the dtype numpy's `arange(x)` has
                // (`float64` for a `uint64`), the same values.
                let dtype = np
                    .call_method1("arange", (x.get_type().call1((0,))?,))?
                    .getattr("dtype")?;
                return shuffled.call_method1("astype", (dtype, "K", "unsafe", true, false));
            }
            let copy = np.call_method1("array", (x,))?;
            if copy.getattr("ndim")?.extract::<usize>()? == 0 {
                return Err(normalize_axis(py, axis, 0).unwrap_err());
            }
            if let Some(axis) = other_axis(&copy, axis)? {
                return along(&copy, axis, &self.stream, threads);
            }
            let arr = copy.cast::<PyUntypedArray>()?;
            shuffle_array(arr, &self.stream, threads)?;
            Ok(copy)
        })
    }

    /// A copy of ``x`` with every lane along ``axis`` shuffled independently
    /// (numpy's ``Generator.permuted``): ``axis=1`` shuffles each row of a
    /// 2-D array, so a (1000000, 52) array is a million decks in one call.
    /// ``axis=None`` shuffles all elements of the flattened array. With
    /// ``out`` (a writeable ``numpy.ndarray`` of ``x``'s shape) the result
    /// is written there and returned; as in numpy, ``x``'s dtype must cast
    /// to ``out``'s under the ``safe`` rule (``TypeError`` otherwise: int64
    /// into an int32 ``out`` would truncate), checked before any draw. An
    /// ``out`` of ``x``'s dtype that is C-contiguous (with ``axis=None`` or
    /// the last axis) gets ``x``'s items and is shuffled in place: no array
    /// of ``x``'s size in between, the same result.
    ///
    /// Sequentially (``threads=None``) the lanes are shuffled one after the
    /// other on the generator's stream, each exactly as ``shuffle`` would;
    /// ``threads=k`` shuffles blocks of rows on k threads, each block keyed
    /// from 32 bytes of the stream (the same result for every k).
    /// O(x.size) time and memory.
    #[pyo3(signature = (x, axis=None, out=None, threads=None))]
    fn permuted<'py>(
        &self,
        x: &Bound<'py, PyAny>,
        axis: Option<isize>,
        out: Option<&Bound<'py, PyAny>>,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(x.py(), "permuted", || {
            let threads = Threads::from_arg(threads)?;
            permuted(x, axis, out.filter(|o| !o.is_none()), &self.stream, threads)
        })
    }

    /// Uniform integers, exactly, as numpy's ``Generator.integers``:
    /// ``integers(high)`` draws from ``[0, high)``, ``integers(low, high)``
    /// from ``[low, high)``, and ``endpoint=True`` includes ``high``. Each
    /// value is ``low`` plus one roll of the dice (Lemire's
    /// multiply-and-reject; as many rolls share one 64-bit word as fit in
    /// it, by Brackett-Rozinsky and Lemire's batched method: three below
    /// 10**6), never ``%`` or floats.
    /// With ``size=None`` one Python int, else an array of shape ``size``:
    /// ``int64``, or ``uint64`` when the bounds pass 2**63 - 1 and
    /// ``low >= 0`` (numpy refuses those bounds without ``dtype=np.uint64``).
    /// ``ValueError`` for an empty range or bounds outside int64 and uint64.
    /// O(size) time; ``MemoryError`` when ``size`` does not fit in memory.
    ///
    /// ``low`` and ``high`` may be arrays: they are broadcast together (and
    /// to ``size``), and each element gets one exact draw of its own range,
    /// in Rust; the dtype comes from the bounds as for scalar bounds
    /// (``uint64`` when one passes 2**63 - 1), never from the values drawn.
    /// ``dtype=`` (an integer dtype or bool) gives the values in that type,
    /// refused with ``ValueError`` when a bound does not fit it, as numpy.
    #[pyo3(
        signature = (low, high=None, size=None, dtype=None, endpoint=Truthy(false)),
        text_signature = "($self, low, high=None, size=None, dtype=None, endpoint=False)"
    )]
    fn integers<'py>(
        &self,
        py: Python<'py>,
        low: &Bound<'py, PyAny>,
        high: Option<&Bound<'py, PyAny>>,
        size: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        endpoint: Truthy,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "integers", || {
            integers(py, &self.stream, low, high, size, endpoint.0, dtype)
        })
    }

    /// ``k`` distinct integers of ``range(n)``, in the (uniformly random)
    /// order drawn, for any ``n`` up to 2**64-1: every one of the
    /// n!/(n-k)! sequences is equally likely. The same as
    /// ``fairdeck sample K N`` (which prints them 1-based: add 1) and the Rust
    /// ``fairdeck::sample::sample``. Returns ``int64`` (``uint64`` when
    /// n > 2**63). O(k) time and memory whatever n is.
    #[pyo3(signature = (k, n))]
    fn sample<'py>(
        &self,
        py: Python<'py>,
        k: &Bound<'py, PyAny>,
        n: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "sample", || {
            let (k, n) = (to_u64(k, "k")?, to_u64(n, "n")?);
            Ok(to_array(py, distinct(py, &self.stream, k, n)?, n))
        })
    }

    /// Picks from ``range(a)`` (an integer ``a``) or from the items of an
    /// array along its first axis, as numpy's ``Generator.choice``.
    /// ``replace=False`` picks distinct items (the order drawn is uniformly
    /// random) by ``sample``; ``replace=True`` rolls each index exactly.
    /// ``size=None`` returns one item.
    ///
    /// ``p=`` weights the picks, exactly: each float64 weight is the binary
    /// fraction it stores, and item ``i`` comes out with probability
    /// ``p[i] / sum(p)`` computed in exact integer arithmetic (numpy only
    /// requires the sum to be within ``sqrt(eps)`` of 1, and so does this).
    /// Without replacement each pick removes its item (successive sampling,
    /// as numpy does).
    ///
    /// ``axis=k`` picks slices along axis k of an array (``a.take(indexes,
    /// axis=k)``, as numpy); an integer ``a`` has no axes and ignores it, as
    /// numpy does. An integer ``a`` may be up to 2**64 - 1 (numpy stops at
    /// 2**63 - 1); ``replace=False`` takes as many values as memory holds. ``shuffle=False`` with ``replace=False``
    /// returns the picked items in index order (numpy only promises that
    /// they are not shuffled).
    #[pyo3(
        signature = (a, size=None, replace=Truthy(true), p=None, axis=0, shuffle=Truthy(true)),
        text_signature = "($self, a, size=None, replace=True, p=None, axis=0, shuffle=True)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn choice<'py>(
        &self,
        py: Python<'py>,
        a: &Bound<'py, PyAny>,
        size: Option<&Bound<'py, PyAny>>,
        replace: Truthy,
        p: Option<&Bound<'py, PyAny>>,
        axis: isize,
        shuffle: Truthy,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "choice", || {
            let how = Pick {
                replace: replace.0,
                p,
                axis,
                shuffle: shuffle.0,
            };
            choice(py, &self.stream, a, size, how)
        })
    }

    /// Frees the scratch memory this generator kept from its last large
    /// shuffle and answers how many bytes that was.
    ///
    /// A shuffle of more than 64 MiB of items (8 MiB with ``threads=``)
    /// needs about ``n * (1 + itemsize)`` bytes of scratch; the generator
    /// keeps it for its next such shuffle, up to 2 GiB (a call that needed
    /// more frees it before returning), so repeated large shuffles do not
    /// pay the kernel's page faults and zeroing each time. The memory is
    /// also freed when the generator is garbage-collected. Stale copies of
    /// the shuffled items stay in it until then (it is not zeroized).
    fn release_scratch(&self, py: Python<'_>) -> PyResult<usize> {
        self.call(py, "release_scratch", || {
            let mut scratch = self.stream.scratch();
            let held = scratch.held_bytes();
            scratch.release();
            Ok(held)
        })
    }

    /// ``n_children`` new generators with independent streams, as numpy's
    /// ``Generator.spawn``. Child ``i`` (counting every child this generator
    /// ever spawned) is keyed with
    /// ``SHA-256("fairdeck-py/spawn/" + key bytes + i as 8 bytes LE)`` — the
    /// derivation of ``fairdeck.ChaCha20(seed).spawn`` — and uses the
    /// parent's generator; the parent's own stream is not touched.
    ///
    /// ``n_children`` is read as numpy reads it: a float is truncated
    /// (``spawn(2.5)`` gives 2), a negative count is an ``OverflowError``.
    fn spawn(&self, n_children: &Bound<'_, PyAny>) -> PyResult<Vec<Generator>> {
        let n = to_count(n_children, "n_children")?;
        if n < 0 {
            return Err(PyOverflowError::new_err(format!(
                "n_children must be non-negative, got {n}"
            )));
        }
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= 1 << 20)
            .ok_or_else(|| PyValueError::new_err("n_children must be at most 2**20"))?;
        Ok((0..n)
            .map(|_| {
                let i = self.spawned.fetch_add(1, Ordering::Relaxed);
                let digest = Sha256::new()
                    .chain_update(b"fairdeck-py/spawn/")
                    .chain_update(self.key.seed.as_bytes())
                    .chain_update(i.to_le_bytes())
                    .finalize();
                let seed = fairdeck::rng::Seed::from_bytes(digest.into());
                let key = Key {
                    seed,
                    entropy: KeyEntropy {
                        origin: "spawn",
                        bits: self.key.entropy.bits,
                    },
                };
                Generator::from_parts(key, Stream::new(&seed, self.stream.kind), 0)
            })
            .collect())
    }

    /// Floats in [0, 1), as numpy's ``Generator.random``:
    /// ``random(size=None, dtype=numpy.float64, out=None)``.
    ///
    /// Each float64 is 53 bits of one 64-bit word of the stream times
    /// 2^-53 (a float32: 24 bits times 2^-24), so the 2^53 possible values
    /// are equally likely, exactly; numpy builds its floats the same way.
    /// ``size=None`` gives a Python float; ``out=`` fills a float array of
    /// that dtype in place and returns it.
    #[pyo3(signature = (size=None, dtype=None, out=None))]
    fn random<'py>(
        &self,
        py: Python<'py>,
        size: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "random", || {
            floats::random(py, &self.stream, size, dtype, out)
        })
    }

    /// ``length`` random bytes from the stream, as numpy's ``Generator.bytes``.
    fn bytes<'py>(
        &self,
        py: Python<'py>,
        length: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        self.call(py, "bytes", || floats::bytes(py, &self.stream, length))
    }

    /// Shuffles a deck and deals it, as ``fairdeck deal --format json``:
    /// returns the same document as a dict (``seed``, ``generator``,
    /// ``game``, ``deck``, ``deck_size``, ``hands`` with ``name``, ``role``
    /// and ``cards``, ``stock``, and the ``entropy_*`` fields).
    ///
    /// ``game`` is bridge (the default), holdem, draw, skat or scopa;
    /// ``players`` changes a game's number of players; ``cards`` (with
    /// ``players``, without ``game``) deals that many cards to each player
    /// round the table; ``deck`` is standard, jokers, piquet, italian or
    /// shoe:K. A fresh generator deals what the CLI deals for the same seed.
    #[pyo3(signature = (game=None, players=None, cards=None, deck=None))]
    fn deal<'py>(
        &self,
        py: Python<'py>,
        game: Option<&str>,
        players: Option<usize>,
        cards: Option<usize>,
        deck: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.call(py, "deal", || {
            let args = DealArgs {
                game,
                players,
                cards,
                deck,
            };
            deal(py, (&self.key, &self.stream), &args)
        })
    }
}

/// Unpickles a `fairdeck.Generator` over a [`Generator`] core (see
/// `Generator.__reduce__`; pickles made before the core had a numpy
/// `Generator` around it name this function too).
#[pyfunction]
#[pyo3(signature = (seed, generator, origin, bits, position, spawned, xoshiro=None))]
#[allow(clippy::too_many_arguments)]
pub fn _restore_generator<'py>(
    py: Python<'py>,
    seed: &str,
    generator: &str,
    origin: &str,
    bits: f64,
    position: u128,
    spawned: u64,
    xoshiro: Option<[u64; 4]>,
) -> PyResult<Bound<'py, PyAny>> {
    let kind: fairdeck::rng::Generator = generator.parse().map_err(value_error)?;
    let key = fairdeck::rng::Seed::from_hex(seed).map_err(value_error)?;
    let origin = [
        "os",
        "hex-key",
        "seed-text",
        "seed-list",
        "seed-sequence",
        "spawn",
    ]
    .into_iter()
    .find(|o| *o == origin)
    .ok_or_else(|| PyValueError::new_err(format!("unknown key origin {origin:?}")))?;
    let stream = match (kind, xoshiro) {
        (fairdeck::rng::Generator::Xoshiro256PlusPlus, Some(state)) => Stream::xoshiro_at(state)?,
        (fairdeck::rng::Generator::Xoshiro256PlusPlus, None) => {
            return Err(PyValueError::new_err(
                "a xoshiro256pp state needs its four words",
            ));
        }
        _ => Stream::at(&key, kind, position),
    };
    let key = Key {
        seed: key,
        entropy: KeyEntropy { origin, bits },
    };
    let core = Bound::new(py, Generator::from_parts(key, stream, spawned))?;
    py.import("fairdeck.generator")?
        .getattr("Generator")?
        .call_method1("_from_core", (core,))
}
