-- Substring search ("contains") by index: trigram indexes need this extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
