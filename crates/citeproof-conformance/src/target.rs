//! The implementation under test: in this process, or a child process speaking the protocol.

use citeproof_model::protocol::Implementation;

use crate::{
    process::{ProcessOptions, Stray, Subprocess},
    protocol::{self, ImplementationInfo, Reply},
    suite::Case,
};

/// An implementation called directly (the reference, a test double).
pub struct InProcess(pub Box<dyn Implementation>);

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("InProcess")
            .field(&self.0.info().name)
            .finish()
    }
}

/// The implementation under test.
#[derive(Debug)]
pub enum Target {
    /// An implementation in this process.
    InProcess(InProcess),
    /// A command speaking the adapter protocol.
    Command(Box<Subprocess>),
}

impl Target {
    pub fn in_process(implementation: Box<dyn Implementation>) -> Target {
        Target::InProcess(InProcess(implementation))
    }

    pub fn command(argv: Vec<String>, options: ProcessOptions) -> Target {
        Target::Command(Box::new(Subprocess::new(argv, options)))
    }

    pub(crate) fn start(&mut self) -> Result<ImplementationInfo, (String, Option<String>)> {
        match self {
            Target::InProcess(r) => Ok(r.0.info()),
            Target::Command(p) => p
                .ensure_started()
                .map_err(|e| (e.reply.err().unwrap_or_default(), e.stderr)),
        }
    }

    pub(crate) fn run(
        &mut self,
        seq: u64,
        token: &str,
        case: &Case,
        wire: impl FnOnce() -> String,
    ) -> (Result<Reply, String>, Option<String>) {
        match self {
            Target::InProcess(r) => {
                // The reference's replies go through the same wire checks as any adapter's.
                let reply = r.0.run(&case.operation, &case.input);
                let line = reply.to_json(seq).to_string();
                (protocol::parse_reply(line.as_bytes(), seq), None)
            }
            Target::Command(p) => {
                let ex = p.run_case(seq, token, &case.operation, &wire());
                (ex.reply, ex.stderr)
            }
        }
    }

    pub(crate) fn take_strays(&mut self) -> Vec<Stray> {
        match self {
            Target::InProcess(_) => Vec::new(),
            Target::Command(p) => p.take_strays(),
        }
    }

    pub(crate) fn stop(&mut self) {
        if let Target::Command(p) = self {
            p.stop();
        }
    }

    /// `in-process` or the command line.
    pub fn describe(&self) -> String {
        match self {
            Target::InProcess(_) => "in-process".into(),
            Target::Command(p) => p.command_line(),
        }
    }

    /// How many times a command implementation was started (0 in-process).
    pub fn starts(&self) -> u32 {
        match self {
            Target::InProcess(_) => 0,
            Target::Command(p) => p.starts,
        }
    }
}
