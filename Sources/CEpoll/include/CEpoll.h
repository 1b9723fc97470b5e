// CEpoll: <sys/epoll.h> for Swift, which Glibc's module does not export (DescriptorEvents uses it).
#ifndef CEPOLL_H
#define CEPOLL_H
#include <sys/epoll.h>
#endif
