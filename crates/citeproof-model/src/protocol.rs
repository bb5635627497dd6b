//! The implementation side of the conformance adapter protocol (docs/ADAPTER.md): what an
//! implementation answers for one case, and the [`Implementation`] trait the in-process
//! reference implements. The runner (`citeproof-conformance`) parses the same messages from any
//! process; the spec crates build their replies with the helpers here, so they need nothing
//! from the runner.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::{Incident, Severity};

/// Version of the adapter protocol.
pub const PROTOCOL_VERSION: u64 = 1;

/// The signature of one operation: input object in, reply out. Never panics on input.
pub type OperationFn = fn(&Value) -> Reply;

/// An implementation of the protocol's operations that runs in the caller's process.
pub trait Implementation: Send + Sync {
    /// What the implementation announces in its hello.
    fn info(&self) -> ImplementationInfo;
    /// Runs one case. Unknown operations are skipped; internal failures are `errored`.
    fn run(&self, operation: &str, input: &Value) -> Reply;
}

/// What the implementation said about itself in its hello line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImplementationInfo {
    pub name: String,
    pub version: String,
    pub language: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
    /// Supported operations; `["*"]` means all.
    pub operations: Vec<String>,
}

impl ImplementationInfo {
    pub fn supports(&self, operation: &str) -> bool {
        self.operations.iter().any(|o| o == "*" || o == operation)
    }

    /// The hello line an implementation writes.
    pub fn hello_json(&self) -> Value {
        let mut implementation = json!({
            "name": self.name,
            "version": self.version,
            "language": self.language,
        });
        if let (Some(h), Some(obj)) = (&self.homepage, implementation.as_object_mut()) {
            obj.insert("homepage".into(), Value::String(h.clone()));
        }
        json!({
            "protocol": PROTOCOL_VERSION,
            "implementation": implementation,
            "operations": self.operations,
        })
    }
}

/// `valid` or `invalid`: the answer of an implementation to one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Valid,
    Invalid,
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::Valid => "valid",
            Answer::Invalid => "invalid",
        })
    }
}

/// The reply of an implementation to one `run` command (without its `seq`).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Result(ResultReply),
    /// The implementation declined the case (e.g. an unsupported variant of an operation).
    Skipped {
        message: String,
    },
    /// The implementation could not run the case (bad input, internal error).
    Errored {
        message: String,
    },
}

#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct ResultReply {
    pub result: Option<Answer>,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

impl Reply {
    pub fn valid(output: Option<Value>) -> Reply {
        Reply::Result(ResultReply {
            result: Some(Answer::Valid),
            output,
            ..ResultReply::default()
        })
    }

    pub fn invalid(errors: Vec<String>) -> Reply {
        Reply::Result(ResultReply {
            result: Some(Answer::Invalid),
            errors,
            ..ResultReply::default()
        })
    }

    pub fn errored(message: impl Into<String>) -> Reply {
        Reply::Errored {
            message: message.into(),
        }
    }

    /// The wire form of this reply for `seq`.
    pub fn to_json(&self, seq: u64) -> Value {
        let mut obj = Map::new();
        obj.insert("seq".into(), json!(seq));
        match self {
            Reply::Result(r) => {
                obj.insert("result".into(), json!(r.result.unwrap_or(Answer::Invalid)));
                obj.insert("errors".into(), json!(r.errors));
                if !r.warnings.is_empty() {
                    obj.insert("warnings".into(), json!(r.warnings));
                }
                if let Some(o) = &r.output {
                    obj.insert("output".into(), o.clone());
                }
            }
            Reply::Skipped { message } => {
                obj.insert("skipped".into(), json!(true));
                obj.insert("message".into(), json!(message));
            }
            Reply::Errored { message } => {
                obj.insert("errored".into(), json!(true));
                obj.insert("message".into(), json!(message));
            }
        }
        Value::Object(obj)
    }
}

/// The codes of `incidents` by severity (errors, warnings), without repeats, in order.
pub fn split_codes(incidents: &[Incident]) -> (Vec<String>, Vec<String>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for i in incidents {
        let list = match i.severity {
            Severity::Error => &mut errors,
            Severity::Warning => &mut warnings,
        };
        let code = i.code.as_str().to_owned();
        if !list.contains(&code) {
            list.push(code);
        }
    }
    (errors, warnings)
}

/// A reply from a list of incidents: `invalid` when any has error severity.
pub fn from_incidents(incidents: &[Incident], output: Option<Value>) -> Reply {
    let (errors, warnings) = split_codes(incidents);
    let result = if errors.is_empty() {
        Answer::Valid
    } else {
        Answer::Invalid
    };
    Reply::Result(ResultReply {
        result: Some(result),
        errors,
        warnings,
        output: if result == Answer::Valid {
            output
        } else {
            None
        },
    })
}

/// The reply for input the operation cannot use (a member of the wrong type, bad base64).
pub fn bad_input(message: impl Into<String>) -> Reply {
    Reply::errored(format!("bad input: {}", message.into()))
}
