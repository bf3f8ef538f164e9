//! Performance counters of the calling thread, read at each pass boundary
//! of `fairdeck bench --passes`.
//!
//! The hardware set is the one the speed work is judged by: cycles,
//! instructions, last-level-cache and data-TLB load misses, as `perf stat`
//! names them. They are opened through Linux's `perf_event_open` for this
//! thread only (the passes run on one thread), counting user and kernel
//! time alike (page faults are kernel time) where the system allows it,
//! user time only where it does not. A machine without a PMU — most VMs,
//! this project's development machine among them — refuses them; the
//! report then says so with the system's reason instead of printing
//! numbers it did not measure. The software set (task clock and page
//! faults) exists on every Linux and checks the plumbing there.

/// Which counters to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CounterSet {
    /// Cycles, instructions, LLC and dTLB load misses.
    Hardware,
    /// Task clock (ns) and page faults: available without a PMU.
    Software,
    /// None.
    Off,
}

/// Open counters, read together.
pub struct Counters {
    names: Vec<&'static str>,
    #[cfg(target_os = "linux")]
    counters: Vec<perf_event::Counter>,
}

impl std::fmt::Debug for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Counters")
            .field("names", &self.names)
            .finish()
    }
}

impl Counters {
    /// Opens and starts `set`; `Ok(None)` for [`CounterSet::Off`], `Err`
    /// with the first counter the system refused and its reason.
    pub fn open(set: CounterSet) -> Result<Option<Counters>, String> {
        match set {
            CounterSet::Off => Ok(None),
            _ => imp::open(set).map(Some),
        }
    }

    /// The counters' names, in the order [`Counters::read`] gives them.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// The counts so far, in the order of [`Counters::names`]. A counter
    /// that could not be read reads 0; its error is not worth stopping a
    /// measurement for, and a lost count shows as a zero in the report.
    pub fn read(&mut self) -> Vec<u64> {
        imp::read(self)
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{CounterSet, Counters};
    use perf_event::events::{Cache, CacheId, CacheOp, CacheResult, Hardware, Software};
    use perf_event::{Builder, Counter};

    fn builders(set: CounterSet) -> Vec<(&'static str, Builder<'static>)> {
        let miss = |which| Cache {
            which,
            operation: CacheOp::READ,
            result: CacheResult::MISS,
        };
        match set {
            CounterSet::Hardware => vec![
                ("cycles", Builder::new(Hardware::CPU_CYCLES)),
                ("instructions", Builder::new(Hardware::INSTRUCTIONS)),
                ("LLC-load-misses", Builder::new(miss(CacheId::LL))),
                ("dTLB-load-misses", Builder::new(miss(CacheId::DTLB))),
            ],
            CounterSet::Software | CounterSet::Off => vec![
                ("task-clock-ns", Builder::new(Software::TASK_CLOCK)),
                ("page-faults", Builder::new(Software::PAGE_FAULTS)),
            ],
        }
    }

    /// Builds and starts one counter with kernel time counted, or user time
    /// only where the system's `perf_event_paranoid` forbids the kernel's.
    fn start(name: &str, builder: &mut Builder<'static>) -> Result<Counter, String> {
        builder.exclude_kernel(false);
        builder
            .build()
            .or_else(|_| builder.exclude_kernel(true).build())
            .and_then(|mut counter| counter.enable().map(|()| counter))
            .map_err(|e| format!("{name}: {}", why(&e)))
    }

    /// The system's refusal in words a reader can act on, with its own
    /// message kept.
    fn why(e: &std::io::Error) -> String {
        // ENOENT, ENODEV, EOPNOTSUPP: the kernel knows no such event here.
        let meaning = match e.raw_os_error() {
            Some(2 | 19 | 95) => "this CPU or VM exposes no such counter (no PMU?)",
            Some(1 | 13) => "not permitted (see /proc/sys/kernel/perf_event_paranoid)",
            _ => "refused",
        };
        format!("{meaning}: {e}")
    }

    pub(super) fn open(set: CounterSet) -> Result<Counters, String> {
        let mut names = Vec::new();
        let mut counters = Vec::new();
        for (name, mut builder) in builders(set) {
            counters.push(start(name, &mut builder)?);
            names.push(name);
        }
        Ok(Counters { names, counters })
    }

    pub(super) fn read(c: &mut Counters) -> Vec<u64> {
        c.counters
            .iter_mut()
            .map(|counter| counter.read().unwrap_or(0))
            .collect()
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use super::{CounterSet, Counters};

    pub(super) fn open(_: CounterSet) -> Result<Counters, String> {
        Err("counters are read through Linux perf events".to_string())
    }

    pub(super) fn read(c: &mut Counters) -> Vec<u64> {
        vec![0; c.names.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn software_counters_count_time_and_faults() {
        let mut counters = Counters::open(CounterSet::Software)
            .expect("software perf events on Linux")
            .expect("a set was asked for");
        assert_eq!(counters.names(), ["task-clock-ns", "page-faults"]);
        let before = counters.read();
        // 64 MiB touched for the first time: thousands of faults, and time.
        let mut v = vec![0u8; 64 << 20];
        for i in (0..v.len()).step_by(4096) {
            v[i] = 1;
        }
        std::hint::black_box(&v);
        let after = counters.read();
        assert!(after[0] > before[0] + 1_000, "{before:?} → {after:?}");
        assert!(after[1] >= before[1] + 30, "{before:?} → {after:?}");
    }

    #[test]
    fn no_set_opens_nothing() {
        assert!(Counters::open(CounterSet::Off).unwrap().is_none());
    }

    #[test]
    fn hardware_counters_count_or_say_why_not() {
        match Counters::open(CounterSet::Hardware) {
            Ok(Some(mut c)) => {
                let a = c.read();
                std::hint::black_box((0..1_000_000u64).sum::<u64>());
                let b = c.read();
                assert!(b[1] > a[1], "instructions: {a:?} → {b:?}");
            }
            Ok(None) => panic!("a set was asked for"),
            Err(reason) => {
                assert!(reason.starts_with("cycles: "), "{reason}");
                assert!(!reason.contains('\n'), "{reason}");
            }
        }
    }
}
