from ._lightrail import *  # noqa: F401,F403
from ._lightrail import __version__ as __version__
