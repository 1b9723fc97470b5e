/* hotpath-client.c: the broker's two hot paths timed from plain libdbus, with C echo and provider floors.
 *
 * Built and run by `broker-bench --hot-paths` (HotPathRun.swift); by hand:
 *   cc -O2 -o hotpath-client scripts/hotpath-client.c $(pkg-config --cflags --libs dbus-1) -lpthread
 *   hotpath-client ADDRESS CALLS URL15 N15 URL60 N60 OFFSET
 *
 * Why C: the Swift bench's figures include its own DBus module (the echo service encodes
 * with it, the provider runs its loop). Here every party except the broker is libdbus and
 * nothing else, so the ratios say what the broker itself costs:
 *   ping     Peer.Ping to the broker (the floor)
 *   list15   ListActivities with a distinct URL per call (URL15 made unique), N15 records
 *   list60   the same for URL60
 *   echo15   the broker's own answer for URL15, captured once, replied by a C thread as a
 *            copy of the captured message: transport and validation of that reply, no work
 *   echo60   the same for URL60
 *   perform  Perform → Finished through a provider served by the C thread (an immediate
 *            ("completed", {}) reply): the broker's part of the four-hop chain
 *   cping    Peer.Ping answered by the C thread (blocked in poll, no dispatch queue): ping
 *            minus cping is what the broker's event loop adds to one pass
 * The figures are taken interleaved (one of each per round), so they share the load.
 * Output: one line per figure, "name p50_us p99_us ratio_to_ping_p50".
 */
#include <dbus/dbus.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BROKER "org.activitybroker.Broker1"
#define BROKER_PATH "/org/activitybroker/Broker1"
#define PROVIDER_PATH "/org/bench/CProvider"
#define ECHO_IFACE "org.bench.CEcho1"
#define PROVIDER_ACTIVITY "bench.cprovider"
#define PROVIDER_URL "https://cprovider.example.net/item/1"

static void die(const char *what, DBusError *error) {
    fprintf(stderr, "hotpath-client: %s: %s\n", what, error && dbus_error_is_set(error) ? error->message : "failed");
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static DBusConnection *connect_to(const char *address) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *c = dbus_connection_open_private(address, &error);
    if (!c) die("connect", &error);
    if (!dbus_bus_register(c, &error)) die("Hello", &error);
    return c;
}

/* Appends {key: variant(string)} to an open a{sv}. */
static void dict_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/* A Broker1 method whose arguments start with `first` (or nothing) and continue with
 * a{sv} {url} (if url) and an empty a{sv} options. */
static DBusMessage *broker_call(const char *member, const char *first, const char *url) {
    DBusMessage *m = dbus_message_new_method_call(BROKER, BROKER_PATH, BROKER, member);
    DBusMessageIter args, dict;
    dbus_message_iter_init_append(m, &args);
    if (first) dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &first);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dict_string(&dict, "url", url);
    dbus_message_iter_close_container(&args, &dict);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dbus_message_iter_close_container(&args, &dict);
    return m;
}

static DBusMessage *call(DBusConnection *c, DBusMessage *m) {
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(c, m, 30000, &error);
    if (!reply) die(dbus_message_get_member(m), &error);
    return reply;
}

/* The number of records in an aa{sv} reply. */
static int record_count(DBusMessage *reply) {
    DBusMessageIter args, array;
    if (!dbus_message_iter_init(reply, &args) || dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_ARRAY) return -1;
    dbus_message_iter_recurse(&args, &array);
    int n = 0;
    while (dbus_message_iter_get_arg_type(&array) != DBUS_TYPE_INVALID) {
        n++;
        dbus_message_iter_next(&array);
    }
    return n;
}

/* URL made unique for call `index`, as the Swift bench's DistinctURLs does: "-index" before the query. */
static void distinct(char *out, size_t size, const char *url, long index) {
    const char *query = strchr(url, '?');
    size_t head = query ? (size_t)(query - url) : strlen(url);
    snprintf(out, size, "%.*s-%ld%s", (int)head, url, index, query ? query : "");
}

/* The C service thread: echoes captured answers, serves Provider1.Perform. */
static DBusMessage *captured[2];
static DBusConnection *service;

static DBusHandlerResult serve(DBusConnection *c, DBusMessage *m, void *data) {
    (void)data;
    if (dbus_message_is_method_call(m, "org.freedesktop.DBus.Peer", "Ping")) {
        DBusMessage *reply = dbus_message_new_method_return(m);
        dbus_connection_send(c, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (dbus_message_is_method_call(m, ECHO_IFACE, "Records")) {
        uint32_t which = 0;
        dbus_message_get_args(m, NULL, DBUS_TYPE_UINT32, &which, DBUS_TYPE_INVALID);
        DBusMessage *reply = dbus_message_copy(captured[which ? 1 : 0]);
        dbus_message_set_reply_serial(reply, dbus_message_get_serial(m));
        dbus_message_set_destination(reply, dbus_message_get_sender(m));
        dbus_connection_send(c, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (dbus_message_is_method_call(m, "org.activitybroker.Provider1", "Perform")) {
        DBusMessage *reply = dbus_message_new_method_return(m);
        DBusMessageIter args, dict;
        const char *state = "completed";
        dbus_message_iter_init_append(reply, &args);
        dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &state);
        dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
        dbus_message_iter_close_container(&args, &dict);
        dbus_connection_send(c, reply, NULL);
        dbus_message_unref(reply);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
}

static void *service_main(void *arg) {
    (void)arg;
    while (dbus_connection_read_write_dispatch(service, -1)) {}
    return NULL;
}

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double percentile(uint64_t *samples, long n, double p) {
    qsort(samples, (size_t)n, sizeof *samples, by_value);
    long rank = (long)(p * (double)n + 0.999999) - 1;
    if (rank < 0) rank = 0;
    if (rank >= n) rank = n - 1;
    return (double)samples[rank] / 1000.0;
}

enum { PING, LIST15, LIST60, ECHO15, ECHO60, PERFORM, CPING, FIGURES };
static const char *names[FIGURES] = {"ping", "list15", "list60", "echo15", "echo60", "perform", "cping"};

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: hotpath-client ADDRESS CALLS URL15 N15 URL60 N60 OFFSET\n");
        return 2;
    }
    const char *address = argv[1];
    long calls = atol(argv[2]), offset = atol(argv[7]);
    const char *urls[2] = {argv[3], argv[5]};
    int expected[2] = {atoi(argv[4]), atoi(argv[6])};
    if (!dbus_threads_init_default()) die("threads", NULL);

    DBusConnection *client = connect_to(address);
    service = connect_to(address);
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_add_match(client, "type='signal',interface='org.activitybroker.Job1',member='Finished'", &error);
    if (dbus_error_is_set(&error)) die("AddMatch", &error);

    /* Capture the broker's answers (the echo's replies), checking their length. */
    for (int i = 0; i < 2; i++) {
        DBusMessage *m = broker_call("ListActivities", NULL, urls[i]);
        captured[i] = call(client, m);
        dbus_message_unref(m);
        if (record_count(captured[i]) != expected[i]) {
            fprintf(stderr, "hotpath-client: %s lists %d, expected %d\n", urls[i], record_count(captured[i]), expected[i]);
            return 1;
        }
    }

    /* Register the C provider from the service connection, then serve on its own thread. */
    {
        DBusMessage *m = dbus_message_new_method_call(BROKER, BROKER_PATH, BROKER, "RegisterActivity");
        DBusMessageIter args, dict, entry, variant, match, hosts;
        const char *key, *host = "cprovider.example.net", *path = PROVIDER_PATH;
        dbus_message_iter_init_append(m, &args);
        dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
        dict_string(&dict, "id", PROVIDER_ACTIVITY);
        dict_string(&dict, "name", "C provider");
        dict_string(&dict, "category", "share");
        key = "object_path";
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "o", &variant);
        dbus_message_iter_append_basic(&variant, DBUS_TYPE_OBJECT_PATH, &path);
        dbus_message_iter_close_container(&entry, &variant);
        dbus_message_iter_close_container(&dict, &entry);
        key = "match";
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "a{sv}", &variant);
        dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "{sv}", &match);
        key = "hosts";
        DBusMessageIter hostsEntry, inner;
        dbus_message_iter_open_container(&match, DBUS_TYPE_DICT_ENTRY, NULL, &hostsEntry);
        dbus_message_iter_append_basic(&hostsEntry, DBUS_TYPE_STRING, &key);
        dbus_message_iter_open_container(&hostsEntry, DBUS_TYPE_VARIANT, "as", &inner);
        dbus_message_iter_open_container(&inner, DBUS_TYPE_ARRAY, "s", &hosts);
        dbus_message_iter_append_basic(&hosts, DBUS_TYPE_STRING, &host);
        dbus_message_iter_close_container(&inner, &hosts);
        dbus_message_iter_close_container(&hostsEntry, &inner);
        dbus_message_iter_close_container(&match, &hostsEntry);
        dbus_message_iter_close_container(&variant, &match);
        dbus_message_iter_close_container(&entry, &variant);
        dbus_message_iter_close_container(&dict, &entry);
        dbus_message_iter_close_container(&args, &dict);
        DBusMessage *reply = call(service, m);
        dbus_message_unref(reply);
        dbus_message_unref(m);
    }
    if (!dbus_connection_add_filter(service, serve, NULL, NULL)) die("filter", NULL);
    pthread_t thread;
    pthread_create(&thread, NULL, service_main, NULL);
    const char *echo_destination = dbus_bus_get_unique_name(service);

    DBusMessage *ping = dbus_message_new_method_call(BROKER, BROKER_PATH, "org.freedesktop.DBus.Peer", "Ping");
    DBusMessage *echo[2];
    for (uint32_t i = 0; i < 2; i++) {
        echo[i] = dbus_message_new_method_call(echo_destination, "/org/bench/CEcho", ECHO_IFACE, "Records");
        dbus_message_append_args(echo[i], DBUS_TYPE_UINT32, &i, DBUS_TYPE_INVALID);
    }
    DBusMessage *perform = broker_call("Perform", PROVIDER_ACTIVITY, PROVIDER_URL);
    DBusMessage *cping = dbus_message_new_method_call(echo_destination, "/org/bench/CEcho", "org.freedesktop.DBus.Peer", "Ping");

    long warm = calls / 10 + 20;
    uint64_t *samples[FIGURES];
    for (int f = 0; f < FIGURES; f++) samples[f] = calloc((size_t)calls, sizeof(uint64_t));
    char url[4096];
    for (long round = -warm; round < calls; round++) {
        uint64_t t[FIGURES];
        for (int f = 0; f < FIGURES; f++) {
            DBusMessage *m = NULL;
            int owned = 0;
            switch (f) {
            case PING: m = ping; break;
            case LIST15: case LIST60:
                distinct(url, sizeof url, urls[f - LIST15], offset + round + warm);
                m = broker_call("ListActivities", NULL, url);
                owned = 1;
                break;
            case ECHO15: case ECHO60: m = echo[f - ECHO15]; break;
            case PERFORM: m = perform; break;
            case CPING: m = cping; break;
            }
            DBusMessage *copy = dbus_message_copy(m);
            if (owned) dbus_message_unref(m);
            uint64_t start = now_ns();
            DBusMessage *reply = call(client, copy);
            if (f == PERFORM) {
                const char *job = NULL;
                dbus_message_get_args(reply, NULL, DBUS_TYPE_OBJECT_PATH, &job, DBUS_TYPE_INVALID);
                for (;;) {
                    DBusMessage *signal = dbus_connection_pop_message(client);
                    if (!signal) {
                        if (!dbus_connection_read_write(client, 30000)) die("read", NULL);
                        continue;
                    }
                    int done = dbus_message_is_signal(signal, "org.activitybroker.Job1", "Finished") && job
                        && strcmp(dbus_message_get_path(signal), job) == 0;
                    dbus_message_unref(signal);
                    if (done) break;
                }
            }
            t[f] = now_ns() - start;
            dbus_message_unref(reply);
            dbus_message_unref(copy);
        }
        if (round >= 0)
            for (int f = 0; f < FIGURES; f++) samples[f][round] = t[f];
    }
    double ping50 = 0;
    for (int f = 0; f < FIGURES; f++) {
        double p50 = percentile(samples[f], calls, 0.5), p99 = percentile(samples[f], calls, 0.99);
        if (f == PING) ping50 = p50;
        printf("%s %.1f %.1f %.2f\n", names[f], p50, p99, p50 / ping50);
    }
    return 0;
}
