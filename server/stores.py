"""The store a server's settings name: the PostgreSQL database of `database` if set, else the data directory's
SQLite file (or memory, with no data directory)."""

from __future__ import annotations

from .config import ServerConfig
from .storage import Storage, open_storage
from .storage_postgres import PostgresStorage


def open_configured(config: ServerConfig, *, readonly: bool = False) -> Storage:
    """The configured store, opened (StorageError if it cannot be used)."""
    if config.database is not None:
        return PostgresStorage(config.database, sync=config.data_sync, readonly=readonly)
    return open_storage(config.data_dir, sync=config.data_sync, readonly=readonly)
