//! The adapter's process tree: the adapter is started so that ending it ends every process it
//! started too — on Unix through a process group of its own, on Windows through a Job Object
//! (`spec/protocol.md`, "Processes").

use std::io;
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};

/// The adapter process, started in a group (Unix) or job (Windows) that holds whatever it starts.
pub(super) struct Tree {
    #[cfg(not(windows))]
    child: std::process::Child,
    /// The adapter in its job. Only the job's `start_kill` is used; waiting is on the adapter
    /// process itself (see [`Tree::wait`]).
    #[cfg(windows)]
    child: Box<dyn process_wrap::std::ChildWrapper>,
}

/// The adapter's stdin, stdout and stderr pipes.
pub(super) type Pipes = (Option<ChildStdin>, Option<ChildStdout>, Option<ChildStderr>);

#[cfg(not(windows))]
impl Tree {
    /// Starts `command` as the root of a tree that [`Tree::kill`] ends whole.
    pub(super) fn spawn(mut command: Command) -> io::Result<Tree> {
        // Its own process group, so that ending it ends whatever it started too.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        Ok(Tree {
            child: command.spawn()?,
        })
    }

    /// Takes the adapter's pipes (once).
    pub(super) fn pipes(&mut self) -> Pipes {
        (
            self.child.stdin.take(),
            self.child.stdout.take(),
            self.child.stderr.take(),
        )
    }

    /// The adapter's exit status, if it has exited.
    pub(super) fn try_wait(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Waits for the adapter itself to exit (after [`Tree::kill`], at once).
    pub(super) fn wait(&mut self) {
        let _ = self.child.wait();
    }

    /// Kills the adapter and, on Unix, every process in its group (what a wrapper such as `sh`
    /// or `npm` started), so that nothing is left holding its pipes or running after the run.
    /// Harmless when they have already exited.
    pub(super) fn kill(&mut self) {
        #[cfg(unix)]
        {
            let _ = rustix::process::kill_process_group(
                rustix::process::Pid::from_child(&self.child),
                rustix::process::Signal::KILL,
            );
        }
        let _ = self.child.kill();
    }
}

#[cfg(windows)]
impl Tree {
    /// Starts `command` as the root of a tree that [`Tree::kill`] ends whole: process-wrap starts
    /// it suspended, puts it in a new Job Object and only then resumes it, so it cannot start
    /// anything outside the job. The job does not allow breakaway, so everything the adapter
    /// starts, and everything those start, stays in it.
    pub(super) fn spawn(command: Command) -> io::Result<Tree> {
        let child = process_wrap::std::CommandWrap::from(command)
            .wrap(process_wrap::std::JobObject)
            .spawn()?;
        Ok(Tree { child })
    }

    /// Takes the adapter's pipes (once).
    pub(super) fn pipes(&mut self) -> Pipes {
        (
            self.child.stdin().take(),
            self.child.stdout().take(),
            self.child.stderr().take(),
        )
    }

    /// The adapter's exit status, if it has exited.
    pub(super) fn try_wait(&mut self) -> Option<ExitStatus> {
        self.adapter().try_wait().ok().flatten()
    }

    /// Waits for the adapter itself to exit (after [`Tree::kill`], at once). Not the job
    /// wrapper's `wait`, which then also waits for a message on the job's completion port, one
    /// Windows does not promise to deliver: the runner must never hang.
    pub(super) fn wait(&mut self) {
        let _ = self.adapter().wait();
    }

    /// Kills every process in the adapter's job (what a wrapper such as `pwsh -File`, `cmd /c`
    /// or `npm` started) and the adapter itself, so that nothing is left holding its pipes or
    /// running after the run. Harmless when they have already exited.
    pub(super) fn kill(&mut self) {
        let _ = self.child.start_kill();
        let _ = self.adapter().start_kill();
    }

    /// The adapter process itself: the one layer the job wrapper wraps.
    fn adapter(&mut self) -> &mut dyn process_wrap::std::ChildWrapper {
        self.child.inner_mut()
    }
}
