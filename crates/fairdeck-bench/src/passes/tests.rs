use super::*;

#[test]
fn rare_counts_keep_their_digits() {
    assert_eq!(per_element(2.0254), "2.025");
    assert_eq!(per_element(0.0), "0.000");
    assert_eq!(per_element(0.000244), "2.44e-4");
}

#[test]
fn a_scattered_shuffle_reports_every_pass() {
    // 2^24 + 2^20 u32 = 68 MiB: past the 64 MiB start, so it scatters.
    let report = run(&Options {
        n: (1 << 24) + (1 << 20),
        generator: Generator::Xoshiro256PlusPlus,
        rounds: 2,
        counters: CounterSet::Software,
        reuse_scratch: false,
    });
    let names: Vec<&str> = report.passes.iter().map(|r| r.pass.as_str()).collect();
    assert_eq!(names[..2], ["Labels", "Scatter"]);
    assert!(names.contains(&"Settle") && names.contains(&"FisherYates"));
    assert_eq!(report.total_ns_per_element.len(), 2);
    // The passes cover the whole shuffle: their sum is the total, up to
    // the clock reads between them.
    for round in 0..2 {
        let sum: f64 = report.passes.iter().map(|r| r.ns_per_element[round]).sum();
        let total = report.total_ns_per_element[round];
        assert!(
            sum <= total * 1.001 && sum >= total * 0.9,
            "{sum} vs {total}"
        );
    }
    // A fresh 12 MiB scratch buffer is touched in the scatter pass.
    let scatter = &report.passes[1];
    assert!(scatter.page_faults.iter().all(|&f| f > 0), "{scatter:?}");
    // The counters are read at the same boundaries: the passes' task
    // clocks add up to about the whole, and the scatter pass has the
    // kernel's page faults too.
    assert_eq!(report.counters, ["task-clock-ns", "page-faults"]);
    assert!(report.counters_unavailable.is_none());
    for round in 0..2 {
        let clock: u64 = report
            .passes
            .iter()
            .map(|r| r.counts["task-clock-ns"][round])
            .sum();
        let total = report.total_ns_per_element[round] * ((1 << 24) + (1 << 20)) as f64;
        // CPU time never exceeds the wall clock of one thread; it can be
        // far below it when other processes share the cores (a loaded CI
        // machine), so the lower bound only says the counter counted.
        assert!(
            clock as f64 <= total * 1.05 && clock > 0,
            "task clock {clock} ns against {total} ns"
        );
    }
    assert!(
        scatter.counts["page-faults"].iter().all(|&f| f > 0),
        "{scatter:?}"
    );
    let text = report.to_text();
    assert!(text.contains("Labels") && text.contains("total"), "{text}");
    assert!(
        text.contains("task-clock-ns") && text.contains("per element"),
        "{text}"
    );
}

#[test]
fn a_kept_scratch_takes_the_page_faults_out_of_the_timed_rounds() {
    let options = |reuse_scratch| Options {
        n: (1 << 24) + (1 << 20),
        generator: Generator::Xoshiro256PlusPlus,
        rounds: 2,
        counters: CounterSet::Off,
        reuse_scratch,
    };
    let faults = |report: &PassReport| -> u64 {
        report
            .passes
            .iter()
            .map(|r| r.page_faults.iter().sum::<u64>())
            .sum()
    };
    let (fresh, kept) = (run(&options(false)), run(&options(true)));
    // Fresh: the 68 MB scratch and 17 MB of labels, at least one fault
    // per 2 MiB page in each round; kept: only the warm-up faulted them.
    assert!(faults(&fresh) >= 2 * 40, "{fresh:?}");
    assert!(
        faults(&kept) * 10 < faults(&fresh),
        "{kept:?} against {fresh:?}"
    );
    assert!(kept.to_text().contains("one scratch for all rounds"));
}

#[test]
fn a_small_shuffle_is_one_pass() {
    let report = run(&Options {
        n: 1000,
        generator: Generator::ChaCha20,
        rounds: 1,
        counters: CounterSet::Off,
        reuse_scratch: false,
    });
    let names: Vec<&str> = report.passes.iter().map(|r| r.pass.as_str()).collect();
    assert_eq!(names, ["FisherYates"]);
}

#[test]
fn hardware_counters_are_reported_or_their_absence_is_explained() {
    let report = run(&Options {
        n: 1000,
        generator: Generator::ChaCha20,
        rounds: 1,
        counters: CounterSet::Hardware,
        reuse_scratch: false,
    });
    let text = report.to_text();
    match &report.counters_unavailable {
        None => {
            assert_eq!(report.counters.len(), 4);
            assert!(text.contains("dTLB-load-misses"), "{text}");
        }
        Some(reason) => {
            assert!(report.counters.is_empty());
            let line = format!("performance counters: not available here ({reason})");
            assert!(text.contains(&line), "{text}");
        }
    }
}
