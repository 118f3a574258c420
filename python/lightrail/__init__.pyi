from ._lightrail import *  # noqa: F401,F403
