// CEpoll has no code of its own: a C target needs one source file for its header to be a module.
#include "CEpoll.h"
