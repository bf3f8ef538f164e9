use super::*;

fn run(args: &[&str]) -> Result<Config, Error> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    match parse(&args, &Syntax::default())? {
        Request::Run(c) => Ok(*c),
        other => panic!("{other:?}"),
    }
}

#[test]
fn options_and_operands_mix_like_getopt() {
    let c = run(&["f", "-rzn5", "--head=3", "--", "-x"]);
    assert!(c.is_err(), "two operands");
    let c = run(&["f", "-rzn5", "--head=3"]).unwrap();
    assert!(c.repeat && c.delimiter == 0 && c.limit == Some(3));
    assert_eq!(c.input, Input::File(Some("f".into())));
    let c = run(&["-e", "a", "-n", "1", "-b-"]);
    assert!(c.is_err(), "-b is not an option");
    let c = run(&["-e", "a", "--", "-n"]).unwrap();
    assert_eq!(c.input, Input::Echo(vec![b"a".to_vec(), b"-n".to_vec()]));
}

#[test]
fn prefixes_of_gnu_options_mean_them_as_in_gnu() {
    let parse_one = |a: &str| parse(&[OsString::from(a)], &Syntax::default());
    for v in ["--v", "--ve", "--ver", "--vers"] {
        assert!(matches!(parse_one(v), Ok(Request::Version)), "{v}");
    }
    assert!(run(&["--verb", "-e", "a"]).unwrap().verbose);
    assert!(run(&["--se", "x", "-e", "a"]).unwrap().seed.is_some());
    let e = run(&["--r"]).unwrap_err().to_string();
    assert_eq!(
        e,
        "option '--r' is ambiguous; possibilities: '--random-source' '--repeat'"
    );
}

#[test]
fn the_smallest_count_wins() {
    assert_eq!(
        run(&["-n", "5", "-n", "2", "-n", "9"]).unwrap().limit,
        Some(2)
    );
}
