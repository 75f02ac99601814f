//! An implementation under test running as a subprocess that speaks the adapter protocol
//! (`spec/protocol.md`). It is never trusted: every reply has a deadline and a size cap, a crash
//! or garbage costs one case and a restart, and whatever it writes to stderr is kept with the case
//! it belongs to.

use crate::capability::{Capabilities, Observable};
use crate::features::Features;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::{Ask, Broken, ImplError, Implementation};
use crate::outcome::InputOutcome;
use crate::profile::Profile;
use crate::protocol::{self, ImplementationInfo, Reply, ReplyKind, Request};
use crate::scenario::canonical;
use crate::scenario::session::Input;
use tree::Tree;

mod tree;

/// The per-case timeout of a small request, in milliseconds (`--timeout-ms`).
pub const TIMEOUT_MS: u64 = 2000;

/// What each MiB of a request adds to the per-case timeout, in milliseconds
/// (`--timeout-ms-per-mib`); chosen from the measurement in `spec/protocol.md` ("Time.").
pub const TIMEOUT_MS_PER_MIB: u64 = 15_000;

/// How the runner treats the subprocess.
#[derive(Debug, Clone)]
pub struct Limits {
    /// How long the reply to a small request may take; see [`Limits::timeout_for`].
    pub timeout: Duration,
    /// How much longer the reply may take for each MiB (2^20 bytes) of the request line: the
    /// time a gate takes grows with the reviewer text it reads.
    pub timeout_per_mib: Duration,
    /// How long the handshake may take.
    pub handshake_timeout: Duration,
    /// The longest reply line, in bytes.
    pub max_reply_bytes: usize,
    /// How many times the subprocess may be restarted in one run.
    pub max_restarts: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_millis(TIMEOUT_MS),
            timeout_per_mib: Duration::from_millis(TIMEOUT_MS_PER_MIB),
            handshake_timeout: Duration::from_secs(10),
            max_reply_bytes: 1 << 20,
            max_restarts: 5,
        }
    }
}

impl Limits {
    /// How long the reply to a request line of `bytes` bytes may take, counted from when the
    /// runner starts writing it: [`Limits::timeout`] plus [`Limits::timeout_per_mib`] for each
    /// MiB, in proportion (saturating, never wrapping).
    pub fn timeout_for(&self, bytes: usize) -> Duration {
        const NANOS: u128 = 1_000_000_000;
        let extra = self
            .timeout_per_mib
            .as_nanos()
            .saturating_mul(bytes as u128)
            >> 20;
        let extra = match u64::try_from(extra / NANOS) {
            // The rest is below a second's nanoseconds, so it fits.
            Ok(secs) => Duration::new(secs, u32::try_from(extra % NANOS).unwrap_or(0)),
            Err(_) => Duration::MAX,
        };
        self.timeout.saturating_add(extra)
    }

    /// How a timeout of a request line of `bytes` bytes is described: the limit and the
    /// options it comes from.
    fn describe_timeout(&self, bytes: usize) -> String {
        let limit = self.timeout_for(bytes).as_millis();
        let base = self.timeout.as_millis();
        if limit == base {
            return format!("{limit} ms (--timeout-ms)");
        }
        format!(
            "{limit} ms (--timeout-ms {base}, plus --timeout-ms-per-mib {} in proportion to the \
             request's {bytes} bytes)",
            self.timeout_per_mib.as_millis(),
        )
    }
}

/// Why the subprocess could not be used at all (the run stops with exit code 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The command could not be started.
    #[error("cannot start `{command}`: {message}")]
    Spawn {
        /// The command line.
        command: String,
        /// The OS error.
        message: String,
    },
    /// The handshake failed.
    #[error("the adapter `{command}` did not complete the handshake: {message}{stderr}{hint}")]
    Handshake {
        /// The command line.
        command: String,
        /// What went wrong.
        message: String,
        /// The last lines it wrote to stderr, if any, on lines of their own.
        stderr: String,
        /// What to look at, on a line of its own, when the failure has a likely cause; or empty.
        hint: String,
    },
    /// The adapter speaks a protocol version this runner does not.
    #[error(
        "the adapter speaks protocol {found}; this runner speaks protocol {} and accepts adapters speaking 1 or 2",
        protocol::VERSION
    )]
    Version {
        /// The adapter's version.
        found: u32,
    },
    /// The adapter's `hello` lists observables or capabilities wrongly: an unknown one, or any
    /// with protocol 1.
    #[error("the adapter `{command}` cannot be checked: {message}")]
    Observes {
        /// The command line.
        command: String,
        /// What is wrong, and what to change.
        message: String,
    },
    /// The adapter cannot be checked against the run's profile.
    #[error("{}", profile_mismatch(*profile, supported, unmet.as_deref()))]
    Profile {
        /// The run's profile.
        profile: Profile,
        /// What it supports.
        supported: Vec<Profile>,
        /// When its hello lists `rules`: the run's profile's rule values it lacks.
        unmet: Option<Vec<String>>,
    },
}

/// Says which profiles the adapter offers, which one the run asked for, and the two ways out.
/// When the hello lists `rules`, also the rule values of the run's profile it lacks (`unmet`).
fn profile_mismatch(asked: Profile, offered: &[Profile], unmet: Option<&[String]>) -> String {
    let mut names: Vec<&str> = offered.iter().map(|p| p.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let fix = match unmet {
        None => format!("make the adapter offer {asked} in its hello"),
        Some(unmet) => format!(
            "make the adapter offer {asked} in its hello, or implement and list in its `rules` what {asked} needs and it lacks: {}",
            unmet.join(", ")
        ),
    };
    match names.as_slice() {
        [] => format!(
            "the adapter offers no profile (its hello lists none), and the run asked for {asked}: {fix}"
        ),
        [one] => format!(
            "the adapter offers only the profile {one}, and the run asked for {asked}: run with --profile {one}, or {fix}"
        ),
        [rest @ .., last] => format!(
            "the adapter offers the profiles {} and {last}, and the run asked for {asked}: run with {}, or {fix}",
            rest.join(", "),
            names
                .iter()
                .map(|n| format!("--profile {n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

/// One line (or event) from the subprocess's stdout.
enum Line {
    Text(String),
    TooLong(usize),
    NotUtf8,
    Eof,
}

/// What the subprocess wrote to stderr, with a running count so a case can take its share.
#[derive(Default)]
struct Stderr {
    lines: Vec<String>,
    total: usize,
    done: bool,
}

const STDERR_KEEP: usize = 2000;

/// How many of its last stderr lines a failed handshake shows.
const STDERR_SHOWN: usize = 20;

/// How long a subprocess that closed its stdout before hello is given to exit, so that its exit
/// status can be reported.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The last [`STDERR_SHOWN`] stderr lines, indented on lines of their own; empty when there are
/// none.
fn stderr_tail(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let shown = &lines[lines.len().saturating_sub(STDERR_SHOWN)..];
    let head = if shown.len() < lines.len() {
        format!(
            "its stderr (the last {} of {} lines)",
            shown.len(),
            lines.len()
        )
    } else {
        "its stderr".to_owned()
    };
    format!("\n{head}:\n  {}", shown.join("\n  "))
}

/// The longest stderr line kept, in bytes; the rest of a longer line is dropped as it is read.
const STDERR_LINE: usize = 4096;

/// Reads stderr line by line, never holding more than [`STDERR_LINE`] bytes of one line, and hands
/// each line (cut, and marked so, when it was longer) to `keep`.
fn read_stderr(err: impl Read, mut keep: impl FnMut(String)) {
    bounded_lines(err, STDERR_LINE, |kept, beyond, _| {
        let mut text = String::from_utf8_lossy(kept)
            .trim_end_matches('\r')
            .to_owned();
        if beyond > 0 {
            text.push_str(&format!(" … ({beyond} more bytes)"));
        }
        keep(text);
        true
    });
}

struct Running {
    tree: Arc<Mutex<Tree>>,
    stdin: ChildStdin,
    /// Watches writes to stdin: a subprocess that stops reading must cost a timeout, never
    /// block the runner.
    watchdog: Arc<Watchdog>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<Stderr>>,
}

impl Running {
    /// The stderr lines written since `mark`. After a crash it waits (briefly) for the stream's
    /// end; otherwise it gives lines still in the pipe a moment to arrive.
    fn stderr_since(&self, mark: usize, wait_for_end: bool) -> Vec<String> {
        let until = Instant::now() + Duration::from_millis(if wait_for_end { 200 } else { 20 });
        while Instant::now() < until
            && !(wait_for_end && self.stderr.lock().map(|s| s.done).unwrap_or(true))
        {
            thread::sleep(Duration::from_millis(5));
        }
        let s = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let first = s.total - s.lines.len();
        let start = mark.saturating_sub(first).min(s.lines.len());
        s.lines[start..].to_vec()
    }

    fn stderr_mark(&self) -> usize {
        self.stderr.lock().map(|s| s.total).unwrap_or(0)
    }

    /// Writes one line, given in parts, to stdin in as few writes as the pipe allows. A write
    /// still blocked after `limit` (the subprocess stopped reading) is ended by killing the
    /// subprocess; the error then says so.
    fn write(&mut self, parts: &[&[u8]], limit: Duration) -> Result<(), (Broken, String)> {
        self.watchdog.arm(limit);
        let written = write_all_parts(&mut self.stdin, parts).and_then(|()| self.stdin.flush());
        let stalled = self.watchdog.disarm();
        match written {
            Ok(()) => Ok(()),
            Err(_) if stalled => Err((
                Broken::Timeout,
                format!("it stopped reading its stdin for {} ms", limit.as_millis()),
            )),
            Err(e) => Err((Broken::Crash, format!("cannot write to its stdin: {e}"))),
        }
    }

    /// The exit status, waiting up to `limit` for the subprocess to end.
    fn exit_status_within(&self, limit: Duration) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + limit;
        loop {
            if let Some(status) = self.try_wait() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    fn try_wait(&self) -> Option<std::process::ExitStatus> {
        self.tree
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .try_wait()
    }

    /// Ends the subprocess and everything it started ([`Tree::kill`]).
    fn kill(self) {
        self.watchdog.stop.store(true, Ordering::Relaxed);
        let mut tree = self.tree.lock().unwrap_or_else(|e| e.into_inner());
        tree.kill();
        tree.wait();
    }
}

/// Kills the subprocess when a write to its stdin has been blocked too long. It polls instead of
/// being woken per write, so a case costs two atomic stores rather than a thread switch.
struct Watchdog {
    epoch: Instant,
    /// When the write in progress must end, in microseconds since `epoch`; 0 when none is.
    deadline: AtomicU64,
    stalled: AtomicBool,
    stop: AtomicBool,
}

impl Watchdog {
    const TICK: Duration = Duration::from_millis(20);

    fn start(tree: Arc<Mutex<Tree>>) -> Arc<Watchdog> {
        let dog = Arc::new(Watchdog {
            epoch: Instant::now(),
            deadline: AtomicU64::new(0),
            stalled: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let watch = dog.clone();
        thread::spawn(move || {
            while !watch.stop.load(Ordering::Relaxed) {
                thread::sleep(Self::TICK);
                let deadline = watch.deadline.load(Ordering::Acquire);
                if deadline != 0 && watch.now() > deadline {
                    watch.stalled.store(true, Ordering::Release);
                    tree.lock().unwrap_or_else(|e| e.into_inner()).kill();
                    return;
                }
            }
        });
        dog
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    fn arm(&self, limit: Duration) {
        let limit = u64::try_from(limit.as_micros()).unwrap_or(u64::MAX);
        self.deadline
            .store(self.now().saturating_add(limit).max(1), Ordering::Release);
    }

    /// Ends the watch of one write; true when the watchdog had to kill the subprocess.
    fn disarm(&self) -> bool {
        self.deadline.store(0, Ordering::Release);
        self.stalled.load(Ordering::Acquire)
    }
}

/// An input's JSON text, kept with the address of the input it encodes (compared, never
/// followed). [`Ask::next`] promises that input is the one asked next.
struct Encoded {
    input: usize,
    json: Vec<u8>,
}

fn address(input: &Input) -> usize {
    std::ptr::from_ref(input) as usize
}

/// What an adapter's hello told the runner.
struct Hello {
    implementation: ImplementationInfo,
    protocol: u32,
    /// What it observes and what its framework can express.
    has: Capabilities,
    /// Whether it asked for canonical scenarios.
    canonical: bool,
    /// The optional features it declares.
    features: Features,
}

/// The subprocess implementation.
pub struct Subprocess {
    command: Vec<String>,
    /// The next input's JSON, encoded ahead of its turn.
    encoded: Option<Encoded>,
    profile: Profile,
    limits: Limits,
    running: Option<Running>,
    info: Option<ImplementationInfo>,
    /// The protocol version the adapter answered hello with.
    protocol: u32,
    /// What its hello says it observes and its framework cannot express.
    has: Capabilities,
    /// Whether its hello asked for canonical scenarios (`spec/protocol.md`, "Canonical
    /// scenarios").
    canonical: bool,
    /// The optional features its hello declares (every one when it lists none).
    features: Features,
    restarts: u32,
    seq: u64,
    gave_up: Option<String>,
    /// Why the adapter was last ended (`protocol-error: …`), for the message that gives up.
    last_broken: Option<String>,
}

/// What an OS error starting `program` says, and, where the program is not found and its name
/// holds a space, that the whole string was taken as one program's name: a command given as one
/// quoted word (`-- "$ADAPTER"`, `-- "node gate.js"`) is not split into words.
fn spawn_failure(program: &str, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound && program.contains(char::is_whitespace) {
        format!(
            "{e}: the whole of {program:?} was taken as one program's name, spaces included; give \
             the command as separate words (`-- node gate.js`, or `-- $ADAPTER` without quotes)"
        )
    } else {
        e.to_string()
    }
}

impl Subprocess {
    /// Starts `command` (program and arguments, not run through a shell) and completes the
    /// handshake for `profile`.
    pub fn start(
        command: Vec<String>,
        profile: Profile,
        limits: Limits,
    ) -> Result<Subprocess, StartError> {
        let mut s = Subprocess {
            command,
            profile,
            limits,
            running: None,
            encoded: None,
            info: None,
            protocol: protocol::VERSION,
            has: Capabilities::PROTOCOL_1,
            canonical: false,
            features: Features::ALL,
            restarts: 0,
            seq: 0,
            gave_up: None,
            last_broken: None,
        };
        let (running, hello) = s.spawn()?;
        s.running = Some(running);
        s.info = Some(hello.implementation);
        s.protocol = hello.protocol;
        s.has = hello.has;
        s.canonical = hello.canonical;
        s.features = hello.features;
        Ok(s)
    }

    /// What the adapter said it wraps.
    pub fn info(&self) -> Option<&ImplementationInfo> {
        self.info.as_ref()
    }

    fn command_line(&self) -> String {
        self.command.join(" ")
    }

    fn spawn(&self) -> Result<(Running, Hello), StartError> {
        let (program, args) = self
            .command
            .split_first()
            .ok_or_else(|| StartError::Spawn {
                command: String::new(),
                message: "no command given".into(),
            })?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Started so that ending it ends whatever it started too (a process group, a job).
        let mut tree = Tree::spawn(command).map_err(|e| StartError::Spawn {
            command: self.command_line(),
            message: spawn_failure(program, &e),
        })?;
        let (stdin, stdout, stderr_pipe) = tree.pipes();
        let stdin = stdin.ok_or_else(|| StartError::Spawn {
            command: self.command_line(),
            message: "no stdin pipe".into(),
        })?;
        let (tx, lines) = mpsc::channel();
        let cap = self.limits.max_reply_bytes;
        if let Some(out) = stdout {
            thread::spawn(move || read_lines(out, cap, tx));
        }
        let tree = Arc::new(Mutex::new(tree));
        let watchdog = Watchdog::start(tree.clone());
        let stderr = Arc::new(Mutex::new(Stderr::default()));
        if let Some(err) = stderr_pipe {
            let sink = stderr.clone();
            thread::spawn(move || {
                read_stderr(err, |line| {
                    let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                    s.lines.push(line);
                    s.total += 1;
                    if s.lines.len() > STDERR_KEEP {
                        s.lines.remove(0);
                    }
                });
                sink.lock().unwrap_or_else(|e| e.into_inner()).done = true;
            });
        }
        let mut running = Running {
            tree,
            stdin,
            watchdog,
            lines,
            stderr,
        };
        let fail_with = |running: Running, message: String, hint: String| {
            let stderr = running.stderr_since(0, true);
            running.kill();
            Err(StartError::Handshake {
                command: self.command_line(),
                message,
                stderr: stderr_tail(&stderr),
                hint,
            })
        };
        let fail = |running: Running, message: String| fail_with(running, message, String::new());
        // It ended (or closed its stdout) without a hello: often a module run in place of the
        // adapter that requires it, which exits at once.
        let gone = |running: Running| {
            let status = running.exit_status_within(EXIT_GRACE);
            let message = match status {
                Some(status) => format!("it exited ({status}) before answering hello"),
                None => "it closed its stdout before answering hello".to_owned(),
            };
            // A failure (an exception, a missing file) exits with a failing status and says why
            // on stderr; a module started in place of its adapter simply ends, successfully.
            let hint = match status {
                Some(status) if !status.success() => {
                    let why = if running.stderr_since(0, true).is_empty() {
                        format!(
                            "its stderr is empty: run `{}` by hand to see why",
                            self.command_line()
                        )
                    } else {
                        "its stderr above says why".to_owned()
                    };
                    format!("\nhint: the adapter failed while starting; {why}")
                }
                _ => format!(
                    "\nhint: an adapter must keep running and answer the hello line on its stdout \
                     (spec/protocol.md); is `{}` an adapter, or a module an adapter requires?",
                    self.command_line()
                ),
            };
            fail_with(running, message, hint)
        };
        let hello = Request::hello(
            self.profile,
            format!("autoreview {}", env!("CARGO_PKG_VERSION")),
        );
        if let Err(e) = running.write(&[&request_line(&hello)], self.limits.handshake_timeout) {
            return match e.0 {
                // The pipe is closed: it already exited.
                Broken::Crash => gone(running),
                _ => fail(running, e.1),
            };
        }
        match running.lines.recv_timeout(self.limits.handshake_timeout) {
            Ok(Line::Text(text)) => match Reply::parse(&text) {
                Ok(Reply::Hello {
                    protocol: p,
                    implementation,
                    profiles,
                    rules,
                    observes,
                    lacks,
                    features,
                    canonical,
                }) => {
                    if !protocol::ACCEPTED.contains(&p) {
                        running.kill();
                        return Err(StartError::Version { found: p });
                    }
                    let read = Capabilities::from_hello(p, observes.as_deref(), lacks.as_deref())
                        .and_then(|read| {
                            if canonical && p < 2 {
                                return Err(format!(
                                    "its hello asks for `canonical` scenarios with protocol {p}; `canonical` belongs to protocol 2: answer `\"protocol\": 2`, or leave `canonical` out"
                                ));
                            }
                            Ok(read)
                        })
                        .and_then(|read| {
                            Ok((read, Features::from_hello(p, features.as_deref())?))
                        });
                    let (has, features) = match read {
                        Ok(o) => o,
                        Err(message) => {
                            running.kill();
                            return Err(StartError::Observes {
                                command: self.command_line(),
                                message,
                            });
                        }
                    };
                    // A gate that decides by rule is checked against every profile whose rule
                    // values it lists.
                    let unmet = match &rules {
                        None => None,
                        Some(_) if p < 2 => Some(Err(format!(
                            "its hello lists `rules` with protocol {p}; `rules` belongs to protocol 2: answer `\"protocol\": 2`, or leave `rules` out"
                        ))),
                        Some(offered) => Some(self.profile.wire_rules().unmet_by(offered, has)),
                    };
                    let unmet = match unmet.transpose() {
                        Ok(unmet) => unmet,
                        Err(message) => {
                            running.kill();
                            return Err(StartError::Observes {
                                command: self.command_line(),
                                message,
                            });
                        }
                    };
                    if !profiles.contains(&self.profile)
                        && unmet.as_ref().is_none_or(|u| !u.is_empty())
                    {
                        running.kill();
                        return Err(StartError::Profile {
                            profile: self.profile,
                            supported: profiles,
                            unmet,
                        });
                    }
                    Ok((
                        running,
                        Hello {
                            implementation,
                            protocol: p,
                            has,
                            canonical,
                            features,
                        },
                    ))
                }
                Ok(other) => fail(
                    running,
                    format!(
                        "expected a hello reply, got {}",
                        short(&format!("{other:?}"))
                    ),
                ),
                Err(e) => fail(
                    running,
                    format!(
                        "its first line is not a hello reply ({}): {}",
                        protocol::unreadable_line(&text, protocol::Line::Reply)
                            .unwrap_or_else(|| e.to_string()),
                        short(&text)
                    ),
                ),
            },
            Ok(Line::TooLong(n)) => {
                fail(running, format!("its first line is longer than {n} bytes"))
            }
            Ok(Line::NotUtf8) => fail(running, "its first line is not UTF-8".into()),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => gone(running),
            Err(RecvTimeoutError::Timeout) => fail(
                running,
                format!(
                    "no hello reply within {} ms",
                    self.limits.handshake_timeout.as_millis()
                ),
            ),
        }
    }

    /// Replaces a broken subprocess, within the restart budget.
    fn restart(&mut self) {
        if let Some(r) = self.running.take() {
            r.kill();
        }
        if self.restarts >= self.limits.max_restarts {
            let why = self.last_broken.as_deref().unwrap_or("a failure");
            let after = format!(", the last time after {why}");
            self.gave_up = Some(if self.restarts == 0 {
                format!(
                    "the adapter is not restarted after {why} (--max-restarts 0); no further case \
                     is run"
                )
            } else {
                format!(
                    "the adapter was restarted {} time{} (--max-restarts){after}; no further case \
                     is run",
                    self.restarts,
                    if self.restarts == 1 { "" } else { "s" }
                )
            });
            return;
        }
        self.restarts += 1;
        match self.spawn() {
            // The cases were chosen, and are judged, on what the first hello said: an adapter
            // that says otherwise after a restart cannot be judged on the same terms.
            Ok((running, hello))
                if (hello.protocol, hello.has, hello.canonical, hello.features)
                    != (self.protocol, self.has, self.canonical, self.features) =>
            {
                running.kill();
                self.gave_up = Some(format!(
                    "the restarted adapter answered hello differently (protocol {}, observes [{}], lacks [{}], features [{}]{}; before: protocol {}, observes [{}], lacks [{}], features [{}]{}), so no further case is run",
                    hello.protocol,
                    names(hello.has.observed()),
                    names(hello.has.lacked()),
                    names(hello.features.declared()),
                    if hello.canonical { ", canonical" } else { "" },
                    self.protocol,
                    names(self.has.observed()),
                    names(self.has.lacked()),
                    names(self.features.declared()),
                    if self.canonical { ", canonical" } else { "" },
                ));
            }
            Ok((running, _)) => self.running = Some(running),
            Err(e) => self.gave_up = Some(format!("restarting the adapter failed: {e}")),
        }
    }
}

/// Names joined for a message: `sessions, requests`.
fn names<T: std::fmt::Display>(items: Vec<T>) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Implementation for Subprocess {
    fn protocol(&self) -> Option<u32> {
        Some(self.protocol)
    }

    fn canonical(&self) -> bool {
        self.canonical
    }

    fn info(&self) -> Option<ImplementationInfo> {
        self.info.clone()
    }

    /// What the adapter's hello lists under `observes`, and every capability but those it lists
    /// under `lacks`; a protocol-1 adapter observes nothing beyond protocol 1.
    fn capabilities(&self) -> Capabilities {
        self.has
    }

    /// What the adapter's hello lists under `features`; every feature when it lists none.
    fn features(&self) -> Features {
        self.features
    }

    fn finish(&mut self) -> Option<ImplError> {
        let running = self.running.as_mut()?;
        let mark = running.stderr_mark();
        thread::sleep(TAIL_GRACE);
        match unsolicited(&running.lines, "after its last reply")? {
            (Broken::Crash, _) => None, // ending after the last case is not a fault
            (kind, message) => {
                let stderr = running.stderr_since(mark, false);
                self.restart();
                Some(ImplError {
                    kind,
                    message,
                    stderr,
                })
            }
        }
    }

    fn describe(&self) -> String {
        match &self.info {
            Some(i) => format!(
                "{} {} ({}) via `{}`",
                i.name,
                i.version,
                i.language,
                self.command_line()
            ),
            None => format!("`{}`", self.command_line()),
        }
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        let kind = match ask.input {
            Input::One(_) => Kind::One,
            Input::Session(_) if !self.has.observes(Observable::Sessions) => {
                return Err(ImplError::new(
                    Broken::NotRun,
                    "the adapter does not observe sessions (its hello does not list them)",
                ));
            }
            Input::Session(_) => Kind::Session,
        };
        // The input's JSON was usually encoded while the previous answer was awaited.
        let json = match self.encoded.take() {
            Some(e) if e.input == address(ask.input) => Ok(e.json),
            _ => encode(ask.input, self.canonical),
        };
        self.exchange(json, kind, ask.next)
    }
}

/// The members of a `decide` line after its `seq`, as an adapter reads them: the scenario as
/// written, or (for an adapter that asked for canonical scenarios) the reply kind, what the
/// scripted world answers for each item, and the canonical form, always a session (a single call
/// as the session of that call).
pub(crate) fn encode(input: &Input, canonical: bool) -> Result<Vec<u8>, serde_json::Error> {
    if !canonical {
        let mut out = b"\"scenario\":".to_vec();
        serde_json::to_writer(&mut out, input)?;
        return Ok(out);
    }
    // A canonical scenario is always a session: the request says which outcome to reply with.
    let (reply, session) = match input {
        Input::One(s) => (
            ReplyKind::Call,
            canonical::session(&canonical::as_session(s)),
        ),
        Input::Session(s) => (ReplyKind::Session, canonical::session(s)),
    };
    let mut out = reply.member().as_bytes().to_vec();
    out.extend_from_slice(b"\"world\":");
    serde_json::to_writer(&mut out, &canonical::world(input))?;
    out.extend_from_slice(b",\"scenario\":");
    serde_json::to_writer(&mut out, &session)?;
    Ok(out)
}

/// The kind of scenario a request carries, and so of outcome its reply must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    One,
    Session,
}

impl Subprocess {
    /// Sends one `decide` request carrying `json` (a scenario of `kind`) and reads its reply:
    /// an outcome of that kind, or why there is none. `next`, when given, is encoded once the
    /// request is written, while the adapter works on it.
    fn exchange(
        &mut self,
        json: Result<Vec<u8>, serde_json::Error>,
        kind: Kind,
        next: Option<&Input>,
    ) -> Result<InputOutcome, ImplError> {
        if let Some(why) = &self.gave_up {
            return Err(ImplError::new(Broken::NotRun, why.clone()));
        }
        let Some(running) = self.running.as_mut() else {
            return Err(ImplError::new(Broken::NotRun, "the adapter is not running"));
        };
        self.seq += 1;
        let seq = self.seq;
        let mark = running.stderr_mark();
        let prefix = format!("{{\"type\":\"decide\",\"seq\":{seq},");
        const SUFFIX: &[u8] = b"}\n";
        // The request line's length sets its deadline: a gate's time grows with what it reads.
        let bytes = prefix.len() + json.as_ref().map_or(0, Vec::len) + SUFFIX.len();
        let limit = self.limits.timeout_for(bytes);
        // A limit too far off for the clock is no deadline at all.
        let deadline = Instant::now().checked_add(limit);
        // Anything that arrived since the previous reply was not asked for.
        let unsolicited = unsolicited(&running.lines, "since its previous reply");
        let written = match (unsolicited, json) {
            (Some(problem), _) => Err(problem),
            (None, Err(e)) => Err((Broken::NotRun, format!("cannot encode the scenario: {e}"))),
            (None, Ok(json)) => running.write(&[prefix.as_bytes(), &json, SUFFIX], limit),
        };
        if let Some(next) = next {
            self.encoded = encode(next, self.canonical).ok().map(|json| Encoded {
                input: address(next),
                json,
            });
        }
        let outcome = match written {
            Err(e) => Err(e),
            Ok(()) => {
                match running.lines.recv_timeout(
                    deadline.map_or(limit, |d| d.saturating_duration_since(Instant::now())),
                ) {
                    Ok(Line::Text(text)) => match Reply::parse(&text) {
                        Ok(Reply::Outcome { seq: s, outcome }) if s == seq => {
                            match (kind, &outcome) {
                            (Kind::One, InputOutcome::One(_))
                            | (Kind::Session, InputOutcome::Session(_)) => Ok(outcome),
                            (Kind::One, InputOutcome::Session(_)) => Err((
                                Broken::ProtocolError,
                                "a session's outcome (with `calls`) for a single-call scenario"
                                    .into(),
                            )),
                            (Kind::Session, InputOutcome::One(_)) => Err((
                                Broken::ProtocolError,
                                "a single call's outcome for a session scenario, whose outcome is {\"id\", \"calls\": [one entry per call or event]}".into(),
                            )),
                        }
                        }
                        Ok(Reply::Error { seq: s, message }) if s == seq => {
                            Err((Broken::Error, message))
                        }
                        Ok(Reply::Outcome { seq: s, .. } | Reply::Error { seq: s, .. }) => Err((
                            Broken::ProtocolError,
                            format!("a reply for seq {s} while {seq} was in flight"),
                        )),
                        Ok(Reply::Hello { .. }) => Err((
                            Broken::ProtocolError,
                            "a hello reply in the middle of the run".into(),
                        )),
                        Err(e) => Err((
                            Broken::ProtocolError,
                            format!(
                                "not a valid reply ({}): {}{}",
                                protocol::unreadable_line(&text, protocol::Line::Reply)
                                    .unwrap_or_else(|| e.to_string()),
                                short(&text),
                                logs_hint(&text)
                            ),
                        )),
                    },
                    Ok(Line::TooLong(n)) => Err((
                        Broken::ProtocolError,
                        format!("a reply longer than {n} bytes (--max-reply-bytes)"),
                    )),
                    Ok(Line::NotUtf8) => {
                        Err((Broken::ProtocolError, "a reply that is not UTF-8".into()))
                    }
                    Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                        let status = running
                            .try_wait()
                            .map(|s| format!(" ({s})"))
                            .unwrap_or_default();
                        Err((
                            Broken::Crash,
                            format!("the adapter exited or closed its stdout{status}"),
                        ))
                    }
                    Err(RecvTimeoutError::Timeout) => match running.try_wait() {
                        // It exited, but something it started still holds its stdout open.
                        Some(status) => Err((
                            Broken::Crash,
                            format!(
                                "the adapter exited ({status}) without a reply, while a process it started kept its stdout open"
                            ),
                        )),
                        None => Err((
                            Broken::Timeout,
                            format!("no reply within {}", self.limits.describe_timeout(bytes)),
                        )),
                    },
                }
            }
        };
        match outcome {
            Ok(o) => Ok(o),
            Err((kind, message)) => {
                let crashed = matches!(kind, Broken::Crash);
                let stderr = running.stderr_since(mark, crashed);
                if kind != Broken::Error {
                    self.last_broken = Some(format!("{}: {}", kind.as_str(), short(&message)));
                    self.restart();
                }
                Err(ImplError {
                    kind,
                    message,
                    stderr,
                })
            }
        }
    }
}

/// A line (or the end of stdout) that arrived while no request was in flight: the adapter wrote
/// what nobody asked for (a reply twice, a log line), or exited between cases.
fn unsolicited(lines: &Receiver<Line>, when: &str) -> Option<(Broken, String)> {
    match lines.try_recv().ok()? {
        Line::Text(text) => Some((
            Broken::ProtocolError,
            format!(
                "{when} the adapter wrote a line nobody asked for: {}{}",
                short(&text),
                logs_hint(&text)
            ),
        )),
        Line::TooLong(n) => Some((
            Broken::ProtocolError,
            format!("{when} the adapter wrote a line nobody asked for, over {n} bytes"),
        )),
        Line::NotUtf8 => Some((
            Broken::ProtocolError,
            format!("{when} the adapter wrote a line nobody asked for, not UTF-8"),
        )),
        Line::Eof => Some((
            Broken::Crash,
            format!("{when} the adapter exited or closed its stdout"),
        )),
    }
}

/// How long the runner listens after the last reply for output nobody asked for.
const TAIL_GRACE: Duration = Duration::from_millis(50);

impl Drop for Subprocess {
    /// Asks the adapter to stop and gives it 500 ms to exit; then ends its tree either way, so
    /// that what it started and left running (a background process of its shell) is ended too.
    fn drop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.write(&[&request_line(&Request::Stop)], Duration::from_millis(500));
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until && r.try_wait().is_none() {
                thread::sleep(Duration::from_millis(5));
            }
            r.kill();
        }
    }
}

/// Writes every part, gathering them into one system call where the pipe takes it all.
fn write_all_parts(out: &mut impl Write, parts: &[&[u8]]) -> std::io::Result<()> {
    let mut slices: Vec<std::io::IoSlice<'_>> =
        parts.iter().map(|p| std::io::IoSlice::new(p)).collect();
    let mut rest = &mut slices[..];
    while !rest.is_empty() {
        match out.write_vectored(rest) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => std::io::IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// One request as a protocol line.
fn request_line(request: &Request) -> Vec<u8> {
    let mut line = serde_json::to_vec(request).unwrap_or_default();
    line.push(b'\n');
    line
}

/// For a line on stdout that is not JSON at all, most often a log line: where logs go instead.
fn logs_hint(text: &str) -> &'static str {
    if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
        return "";
    }
    "; stdout is for protocol lines only: write logs to stderr (console.error in Node.js, \
     print(..., file=sys.stderr) in Python)"
}

fn short(text: &str) -> String {
    let cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Splits what `input` yields into lines, never holding more than `cap` bytes of one: `each` gets
/// a line's kept bytes (without the line feed), how many bytes beyond `cap` it had, and whether a
/// line feed ended it (the last one may not); it returns false to stop reading.
fn bounded_lines(input: impl Read, cap: usize, mut each: impl FnMut(&[u8], usize, bool) -> bool) {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    let mut beyond = 0usize;
    while let Ok(buf) = reader.fill_buf() {
        if buf.is_empty() {
            break;
        }
        let (chunk, end) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = cap.saturating_sub(line.len()).min(chunk.len());
        line.extend_from_slice(&chunk[..room]);
        beyond += chunk.len() - room;
        let used = end.unwrap_or(chunk.len());
        reader.consume(used);
        if end.is_some() {
            let go_on = each(&line, beyond, true);
            line.clear();
            beyond = 0;
            if !go_on {
                return;
            }
        }
    }
    if !line.is_empty() || beyond > 0 {
        each(&line, beyond, false);
    }
}

/// Reads stdout line by line, never holding more than `cap` bytes of one line; a last line that
/// no line feed ends is not a reply.
fn read_lines(out: impl Read, cap: usize, tx: mpsc::Sender<Line>) {
    bounded_lines(out, cap, |kept, beyond, complete| {
        if !complete {
            return false;
        }
        let event = if beyond > 0 {
            Line::TooLong(cap)
        } else {
            match std::str::from_utf8(kept) {
                Ok(t) if t.trim().is_empty() => return true,
                Ok(t) => Line::Text(t.to_owned()),
                Err(_) => Line::NotUtf8,
            }
        };
        tx.send(event).is_ok()
    });
    let _ = tx.send(Line::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The members of a decide line after its `seq`, read back as one JSON object.
    fn members(input: &Input, canonical: bool) -> serde_json::Value {
        let bytes = encode(input, canonical).unwrap();
        serde_json::from_str(&format!("{{{}}}", String::from_utf8(bytes).unwrap())).unwrap()
    }

    #[test]
    fn a_canonical_decide_line_carries_the_worlds_answer_for_each_item() {
        let session = Input::from_json(
            r#"{"calls":[{"tool":{"name":"t"},"schema":"registry-only","log":"no-open-step","reviewer":{"text":"x"}},{"event":"dispose"}]}"#,
        )
        .unwrap();
        let m = members(&session, true);
        assert_eq!(m["reply"], "session");
        assert_eq!(m["scenario"], canonical::input(&session));
        assert_eq!(m["world"][1], serde_json::Value::Null);
        assert_eq!(m["world"][0]["header_schemas"], 0);
        assert_eq!(m["world"][0]["registry_schemas"], 1);
        let error = m["world"][0]["log_error"].as_str().unwrap();
        assert!(error.contains("no open step"), "{error}");
        let one = Input::from_json(r#"{"tool":{"name":"t"},"reviewer":{"text":"x"}}"#).unwrap();
        let m = members(&one, true);
        assert_eq!(m["reply"], "call");
        assert_eq!(m["world"].as_array().map(Vec::len), Some(1));
        // As written, a scenario travels alone.
        assert_eq!(members(&one, false).as_object().map(|o| o.len()), Some(1));
    }

    #[test]
    fn a_profile_mismatch_names_every_offered_profile() {
        let (baseline, resilient) = (Profile::BASELINE, Profile::RESILIENT);
        assert_eq!(
            profile_mismatch(resilient, &[], None),
            "the adapter offers no profile (its hello lists none), and the run asked for \
             resilient: make the adapter offer resilient in its hello"
        );
        assert_eq!(
            profile_mismatch(baseline, &[resilient, resilient], None),
            "the adapter offers only the profile resilient, and the run asked for baseline: run \
             with --profile resilient, or make the adapter offer baseline in its hello"
        );
        assert_eq!(
            profile_mismatch(resilient, &[baseline, resilient], None),
            "the adapter offers the profiles baseline and resilient, and the run asked for \
             resilient: run with --profile baseline or --profile resilient, or make the adapter \
             offer resilient in its hello"
        );
    }

    #[test]
    fn the_timeout_grows_with_the_request_in_proportion() {
        let limits = Limits {
            timeout: Duration::from_millis(2000),
            timeout_per_mib: Duration::from_millis(10_000),
            ..Limits::default()
        };
        let ms = |bytes: usize| limits.timeout_for(bytes).as_millis();
        assert_eq!(ms(0), 2000);
        assert_eq!(ms(80), 2000, "80 bytes add 0.76 ms, less than one");
        assert_eq!(ms(512 << 10), 7000);
        assert_eq!(ms(1 << 20), 12_000);
        assert_eq!(ms(2 << 20), 22_000);
        // A request line of RO-089's size: 512 KiB of `{` and the scenario around them.
        assert_eq!(ms(524_833), 7005);
        assert_eq!(
            limits.describe_timeout(524_833),
            "7005 ms (--timeout-ms 2000, plus --timeout-ms-per-mib 10000 in proportion to the \
             request's 524833 bytes)"
        );
        assert_eq!(limits.describe_timeout(80), "2000 ms (--timeout-ms)");
        // Without an allowance the timeout is the same for every request.
        let flat = Limits {
            timeout_per_mib: Duration::ZERO,
            ..limits.clone()
        };
        assert_eq!(flat.timeout_for(2 << 20), Duration::from_millis(2000));
        // Extreme options saturate instead of wrapping or panicking.
        let huge = Limits {
            timeout: Duration::MAX,
            timeout_per_mib: Duration::MAX,
            ..limits
        };
        assert_eq!(huge.timeout_for(usize::MAX), Duration::MAX);
        let per_mib_only = Limits {
            timeout: Duration::from_millis(1),
            ..huge
        };
        assert_eq!(per_mib_only.timeout_for(usize::MAX), Duration::MAX);
        let one_ns_per_mib = Limits {
            timeout_per_mib: Duration::from_nanos(1),
            ..per_mib_only
        };
        assert_eq!(
            one_ns_per_mib.timeout_for(usize::MAX),
            Duration::from_millis(1) + Duration::from_nanos((1 << 44) - 1),
            "2^64 - 1 bytes are just under 2^44 MiB, and the allowance is rounded down"
        );
    }

    #[test]
    fn stderr_lines_are_kept_short() {
        let long = "x".repeat(10_000);
        let input = format!("first\r\n{long}\nlast without a newline");
        let mut lines = Vec::new();
        read_stderr(input.as_bytes(), |l| lines.push(l));
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "first");
        assert!(lines[1].starts_with(&"x".repeat(STDERR_LINE)));
        assert!(lines[1].ends_with(&format!(" … ({} more bytes)", 10_000 - STDERR_LINE)));
        assert_eq!(lines[2], "last without a newline");
    }
}
