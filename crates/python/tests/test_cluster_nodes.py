"""Two Ray nodes on this machine (issue 49, item 6): a head and a second node, each its own
`ray start` process with one CPU, its own temporary folder and its own ports; self-play through
the head spreads over both and writes the shards one local worker writes, byte for byte.

Each node is started with `ray start --block` and stopped by signalling that process (it stops
the node's Ray processes), never by `ray stop`, which would stop every Ray on the machine.
"""

import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed: the two-node test needs it")

import qiyi.cluster  # noqa: E402

RAY = os.path.join(os.path.dirname(sys.executable), "ray")


def _free_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def _node_ports(ports):
    return [f"--dashboard-agent-listen-port={ports[0]}", f"--dashboard-agent-grpc-port={ports[1]}",
            f"--metrics-export-port={ports[2]}", f"--runtime-env-agent-port={ports[3]}"]


def _digests(folder):
    return {f: hashlib.sha256(open(os.path.join(folder, f), "rb").read()).hexdigest()
            for f in sorted(os.listdir(folder))}


def _stop(procs):
    """Stops the nodes started here (the second first), by their process groups."""
    for p in reversed(procs):
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in reversed(procs):
        try:
            p.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.fixture(scope="module")
def two_nodes():
    if not os.path.exists(RAY):
        pytest.skip(f"the `ray` command is not beside {sys.executable}")
    if ray.is_initialized():
        ray.shutdown()
    ports = _free_ports(9)
    # Short folders: Ray's socket paths must fit in 107 bytes.
    dirs = [tempfile.mkdtemp(prefix=f"qiyi-ray{i}-", dir="/tmp") for i in (0, 1)]
    address = f"127.0.0.1:{ports[0]}"
    common = ["--num-cpus=1", "--block", "--disable-usage-stats"]
    commands = [
        [RAY, "start", "--head", f"--port={ports[0]}", "--include-dashboard=false",
         *_node_ports(ports[1:5]), f"--temp-dir={dirs[0]}", *common],
        [RAY, "start", f"--address={address}", *_node_ports(ports[5:9]),
         f"--temp-dir={dirs[1]}", *common],
    ]
    procs = []
    # A local `ray.init` earlier in this process (the other test modules) leaves RAY_AUTH_MODE
    # and friends in the environment; the nodes and this driver start without them, and with
    # HOME their own folder, so no Ray settings of the user's (an auth token, ...) leak in.
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("RAY_")}
    try:
        for d, command in zip(dirs, commands):
            env = dict(os.environ, HOME=d)
            log = open(os.path.join(d, "ray-start.log"), "w")
            procs.append(subprocess.Popen(command, env=env, stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True))
            if len(procs) == 1:
                deadline = time.time() + 120
                while "Ray runtime started" not in open(log.name).read():
                    if procs[0].poll() is not None or time.time() > deadline:
                        raise RuntimeError("the head did not start: " + open(log.name).read())
                    time.sleep(0.5)
        ray.init(address=address, log_to_driver=False)
        deadline = time.time() + 120
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            if time.time() > deadline:
                raise RuntimeError("the second node did not join: "
                                   + open(os.path.join(dirs[1], "ray-start.log")).read())
            time.sleep(0.5)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop(procs)
        os.environ.update(saved)


def test_selfplay_through_the_head_spreads_over_both_nodes_with_the_same_bytes(
        two_nodes, tmp_path):
    nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
    assert len(nodes) == 2
    assert ray.cluster_resources().get("CPU") == 2

    # Both nodes' workers warm (a worker process started on each), so the run is not decided
    # by which node starts Python first.
    @ray.remote(num_cpus=1, scheduling_strategy="SPREAD")
    def where():
        time.sleep(0.5)
        return ray.get_runtime_context().get_node_id()

    assert set(ray.get([where.remote() for _ in range(4)])) == nodes

    kw = dict(seed=11, shard=2, depth=4, random_plies=4)
    spread = tmp_path / "two-nodes"
    r = qiyi.cluster.selfplay("checkers", 16, str(spread), address=two_nodes, **kw)
    assert r["format"] == "QIYIPOS1" and r["shards"] == 8 and len(r["written"]) == 8
    # Every shard's task ran on one of the two nodes, and both nodes ran some.
    assert set(r["node_ids"]) == nodes, r["node_ids"]
    # The same shards as one worker in this process writes (no Ray), byte for byte.
    local = tmp_path / "one-worker"
    qiyi._qiyi.checkers_selfplay(str(local), games=16, games_per_shard=2, seed=11, depth=4,
                                 random_plies=4, threads=1)
    a, b = _digests(spread), _digests(local)
    assert len(a) == 9 and a == b  # 8 shards and run.txt
