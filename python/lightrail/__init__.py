"""lightrail: schedules, validation, devices and fabrics of the lightrail
driver, from Python (a pybind11 binding of the C++ driver; docs/python.md).

Not to be confused with python/lightrail_client.py, the pure-Python client
of the lightraild daemon's HTTP API.
"""

from ._lightrail import (  # noqa: F401
    DARK,
    BoardBusyError,
    CancelOutcome,
    CommitError,
    CommitTicket,
    Configuration,
    ConfigurationList,
    Device,
    DeviceCapabilities,
    Error,
    Fabric,
    FabricBoard,
    FabricBoardState,
    FabricSpec,
    FormatError,
    LeaseError,
    LeaseInfo,
    Problem,
    Schedule,
    Step,
    StepList,
    Status,
    SyncCalibration,
    SyncMode,
    SyncStatus,
    Swap,
    TimeoutError,
    TransportError,
    ValidationError,
    VerifyError,
    __version__,
    regmap_version,
    source_hash,
    validate,
)

__all__ = [
    "DARK", "BoardBusyError", "CancelOutcome", "CommitError", "CommitTicket", "Configuration", "ConfigurationList",
    "Device",
    "DeviceCapabilities", "Error", "Fabric", "FabricBoard", "FabricBoardState", "FabricSpec", "FormatError",
    "LeaseError", "LeaseInfo", "Problem", "Schedule", "Step", "StepList", "Status", "SyncCalibration", "SyncMode",
    "SyncStatus", "Swap", "TimeoutError",
    "TransportError", "ValidationError", "VerifyError", "regmap_version", "source_hash", "validate",
]
