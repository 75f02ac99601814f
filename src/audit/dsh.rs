//! Reading a dsh session log into audit records (`spec/audit-dsh.md`).
