use std::fmt;

/// What can go wrong; each kind stands for the server's SQLSTATE for the
/// same case, so a caller can tell bad bytes from a refused key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Bytes the server's input would refuse (22P03 there), with the
    /// server's message: "invalid bloomfilter value: ...".
    InvalidValue(String),
    /// A key no value of the filter's key type can be compared with
    /// (42804 there): never answered "absent".
    KeyTypeMismatch(String),
    /// A text key the key type's input function refuses (22P02, 22003).
    InvalidKey(String),
    /// A key the server would convert but this client does not.
    Unsupported(String),
    /// A bad argument (22023 there).
    InvalidArgument(String),
    /// A filter that cannot grow, or a request over the size limit (54000).
    Full(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidValue(m)
            | Error::KeyTypeMismatch(m)
            | Error::InvalidKey(m)
            | Error::Unsupported(m)
            | Error::InvalidArgument(m)
            | Error::Full(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
