from typing import Any, Dict, List, Optional

TRACE_VERSION: int
PLANNED_COLLECTIVES: Dict[str, str]

class Session:
    rank: int
    world_size: int
    backend: str
    reporter: int
    observe_iterations: int
    relearn_every: int
    trace_path: Optional[str]
    iteration: int
    pattern: Optional[List[Dict[str, Any]]]
    job_id: Optional[str]
    circuits: bool
    job: Optional[Dict[str, Any]]
    events: int
    def step(self) -> None: ...
    def derive_pattern(self, records: List[Dict[str, Any]]) -> Dict[str, Any]: ...
    def job_file(self, pattern: Dict[str, Any]) -> Dict[str, Any]: ...
    def attach(self, model: Any) -> None: ...
    def progress(self, accuracy: float) -> None: ...
    def close(self) -> None: ...

def enable(
    daemon: Optional[str] = ...,
    token_file: Optional[str] = ...,
    trace_dir: Optional[str] = ...,
    job_name: Optional[str] = ...,
    observe_iterations: int = ...,
    target_accuracy: Optional[float] = ...,
    wait_for_circuits: bool = ...,
    reporter: int = ...,
    wait_timeout_s: float = ...,
    keep_job: bool = ...,
    client: Any = ...,
    on_error: str = ...,
    relearn_every: int = ...,
) -> Session: ...
def disable() -> None: ...
def session() -> Optional[Session]: ...
def progress(accuracy: float) -> None: ...
