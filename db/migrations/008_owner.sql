-- Facts about the database itself, as text. 'application': the Discord application whose
-- games these are. A second bot pointed at this database (a staging bot given production's
-- DATABASE_URL) would take every game here for one of a server it has left, and end it.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
)
