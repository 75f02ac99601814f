//! A dsh session log read into audit records (`spec/audit-dsh.md`).
