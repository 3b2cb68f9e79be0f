/*
 * The ceiling for Lucid's durable writes: raw SQLite inserts that are on disk when their
 * commit returns (WAL, synchronous=FULL), one thread, no HTTP, no model, no JSON.
 *
 * Usage: sqlite_inserts FOLDER SECONDS
 *   Makes FOLDER/inserts.sqlite (FOLDER must exist, on the disk to measure) with a table
 *   shaped like a dream row: a UUID as text and about 600 bytes of text. Then, for SECONDS
 *   each, inserts one row per transaction, and 64 rows per transaction, and prints one
 *   line each that script/bench-limits reads:
 *     one-per-transaction rows=N commits=N seconds=S rows_per_s=R commits_per_s=R
 *     64-per-transaction rows=N commits=C seconds=S rows_per_s=R commits_per_s=Q
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sqlite3 *database;

static void
fail (const char *what)
{
  fprintf (stderr, "sqlite_inserts: %s: %s\n", what, sqlite3_errmsg (database));
  exit (1);
}

static void
run (const char *sql)
{
  if (SQLITE_OK != sqlite3_exec (database, sql, NULL, NULL, NULL))
    fail (sql);
}

static double
now (void)
{
  struct timespec time;
  clock_gettime (CLOCK_MONOTONIC, &time);
  return (double) time.tv_sec + (double) time.tv_nsec / 1e9;
}

/* xorshift64*: ids and bodies need only differ, not be unpredictable. */
static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t
next_random (void)
{
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 0x2545F4914F6CDD1Dull;
}

/* A random version-4 UUID in its 36-character text form. */
static void
make_uuid (char text[37])
{
  static const char hex[] = "0123456789abcdef";
  uint64_t high = next_random (), low = next_random ();
  unsigned char bytes[16];
  for (int i = 0; i < 8; i++)
  {
    bytes[i] = (unsigned char) (high >> (8 * i));
    bytes[8 + i] = (unsigned char) (low >> (8 * i));
  }
  bytes[6] = (unsigned char) ((bytes[6] & 0x0f) | 0x40);
  bytes[8] = (unsigned char) ((bytes[8] & 0x3f) | 0x80);
  char *out = text;
  for (int i = 0; i < 16; i++)
  {
    if ( (4 == i) || (6 == i) || (8 == i) || (10 == i) )
      *out++ = '-';
    *out++ = hex[bytes[i] >> 4];
    *out++ = hex[bytes[i] & 15];
  }
  *out = '\0';
}

static sqlite3_stmt *insert;
static char body[601];

static void
insert_row (void)
{
  char id[37];
  make_uuid (id);
  /* A different body each time, so pages never repeat. */
  uint64_t salt = next_random ();
  for (int i = 0; i < 16; i++)
    body[i] = "abcdefghijklmnop"[(salt >> (4 * i)) & 15];
  sqlite3_bind_text (insert, 1, id, 36, SQLITE_TRANSIENT);
  sqlite3_bind_text (insert, 2, body, 600, SQLITE_STATIC);
  if (SQLITE_DONE != sqlite3_step (insert))
    fail ("insert");
  sqlite3_reset (insert);
}

/* Inserts `per_commit` rows per transaction for `seconds`, and prints what it managed. */
static void
measure (const char *name, int per_commit, double seconds)
{
  long rows = 0, commits = 0;
  double start = now (), elapsed;
  do
  {
    run ("BEGIN IMMEDIATE");
    for (int i = 0; i < per_commit; i++)
      insert_row ();
    run ("COMMIT");
    rows += per_commit;
    commits++;
  } while ((elapsed = now () - start) < seconds);
  printf ("%s rows=%ld commits=%ld seconds=%.3f rows_per_s=%.1f commits_per_s=%.1f\n", name, rows,
          commits, elapsed, rows / elapsed, commits / elapsed);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  if (3 != argc || atof (argv[2]) <= 0)
  {
    fprintf (stderr, "usage: %s FOLDER SECONDS\n", argv[0]);
    return 2;
  }
  char path[4096];
  snprintf (path, sizeof (path), "%s/inserts.sqlite", argv[1]);
  if (SQLITE_OK != sqlite3_open (path, &database))
    fail (path);
  run ("PRAGMA journal_mode=WAL");
  run ("PRAGMA synchronous=FULL");
  run ("CREATE TABLE dream (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT");
  if (SQLITE_OK != sqlite3_prepare_v2 (database, "INSERT INTO dream (id, body) VALUES (?1, ?2)", -1, &insert, NULL))
    fail ("prepare");
  for (int i = 0; i < 600; i++)
    body[i] = (char) ('a' + i % 26);

  double seconds = atof (argv[2]);
  measure ("one-per-transaction", 1, seconds);
  measure ("64-per-transaction", 64, seconds);

  sqlite3_finalize (insert);
  if (SQLITE_OK != sqlite3_close (database))
    fail ("close");
  return 0;
}
