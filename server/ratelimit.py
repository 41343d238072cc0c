"""Rate limits on trio's clock (the session's chat and resume, a seat's refused actions), and what the limits per
address count by (`address_key`)."""

from __future__ import annotations

import ipaddress


def address_key(address: str | None) -> str | None:
    """What the limits per address (max_connections_per_address, and the open tables of one address) count a
    client's IP `address` by: an IPv4 address itself (an IPv4-mapped IPv6 one as the IPv4 address it is), an IPv6
    address by its /64 network, which is one host's or one subscriber's (a home connection is given a /64 or more,
    and a host may take any address in it: counted one by one, 1000 addresses of one /64 filled the server;
    red team rt25). None: no address (an in-memory connection)."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # (a link-local address's zone, `fe80::1%eth0`)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network((ip, 64), strict=False))


def network_key(address: str | None) -> str | None:
    """The wider network an IPv6 `address` belongs to, its /48 (a site's: a home or a VPS is often given a /56 or a
    /48, 256 or 65,536 /64s of its own: review rv25), for the limits that count networks besides addresses; None
    for an IPv4 address (one host's) or none. `address` may be an `address_key` (a /64 network)."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_interface(address.partition("%")[0]).ip
    except ValueError:
        return None
    if ip.version == 4 or ip.ipv4_mapped is not None:
        return None
    return str(ipaddress.ip_network((ip, 48), strict=False))


MAPPED = ipaddress.ip_network("::ffff:0:0/96")
"""IPv4-mapped IPv6 addresses: a connection's is read as the IPv4 address it is, and a banned one alike."""


def banned_networks(addresses) -> tuple:
    """config.banned_addresses as networks (an address alone is a network of one); one written IPv4-mapped
    (`::ffff:203.0.113.7`) as the IPv4 one it stands for (review rv29: it never matched)."""
    networks = []
    for address in addresses:
        network = ipaddress.ip_network(address, strict=False)
        if network.version == 6 and network.subnet_of(MAPPED):
            network = ipaddress.ip_network((network.network_address.ipv4_mapped, network.prefixlen - 96))
        networks.append(network)
    return tuple(networks)


def banned_by(address: str | None, networks: tuple):
    """The first of `networks` (`banned_networks`) the IP `address` lies in, or None; an IPv4-mapped IPv6 address
    as the IPv4 one it is. An address that is no IP (an in-memory connection) is in none."""
    try:
        ip = ipaddress.ip_address((address or "").partition("%")[0])
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return next((network for network in networks if ip in network), None)


class TokenBucket:
    """A rate limit on trio's clock: `burst` at once, refilled at `rate` a second. `take` spends one if there is
    one; `has` only says whether there is (a limit on what was refused is spent after the refusal, not before)."""

    __slots__ = ("burst", "rate", "tokens", "at")

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), None

    def _refill(self, now: float) -> None:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def has(self, now: float) -> bool:
        return self.level(now) >= 1

    def level(self, now: float) -> float:
        """What is left now (whole ones and the part refilled since)."""
        self._refill(now)
        return self.tokens

    def take(self, now: float) -> bool:
        self._refill(now)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Buckets:
    """A TokenBucket per key (an address), for the `size` keys used last: past it the oldest is forgotten (it starts
    a new burst), so that the memory stays bounded whoever asks."""

    __slots__ = ("burst", "rate", "size", "_buckets")

    def __init__(self, burst: int, rate: float, size: int) -> None:
        self.burst, self.rate, self.size = burst, rate, size
        self._buckets: dict[str, TokenBucket] = {}

    def has(self, key: str, now: float) -> bool:
        """Whether `key` has one left (spending none: `take` once what it pays for is done)."""
        bucket = self._buckets.get(key)
        return bucket is None or bucket.has(now)

    def level(self, key: str, now: float) -> float:
        """What `key` has left now (a key not seen: a whole burst)."""
        bucket = self._buckets.get(key)
        return self.burst if bucket is None else bucket.level(now)

    def take(self, key: str, now: float) -> bool:
        """Spend one of `key`'s, if it has one left."""
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = TokenBucket(self.burst, self.rate)
            if len(self._buckets) >= self.size:
                del self._buckets[next(iter(self._buckets))]
        self._buckets[key] = bucket  # (the most recent last)
        return bucket.take(now)


class SharedBucket:
    """A TokenBucket for everyone (the server's table creations) whose lower half is kept for newcomers: while it
    is at most half full a key (a network) takes one only with a reserved one of its own, one at once and then one
    an hour (`reserve_rate`). Without it a few networks taking as fast as their own limits allow (about 30 IPv4
    addresses at 120 tables an hour) spent everyone's for the hour; with it they take the upper half, and a player
    who has made no table lately still makes his (review rv26). A key None (not counted by address, behind a
    proxy: nothing tells its players apart) takes from the whole bucket. The same `has`/`take` as Buckets."""

    __slots__ = ("common", "reserved")

    def __init__(self, burst: int, rate: float, size: int, reserve_rate: float = 1 / 3600) -> None:
        self.common = TokenBucket(burst, rate)
        self.reserved = Buckets(1, reserve_rate, size)

    @property
    def burst(self) -> int:
        return self.common.burst

    def _upper(self, now: float) -> bool:
        """Whether the bucket is more than half full (one taken from it leaves at least half)."""
        return self.common.level(now) >= 1 + self.common.burst / 2

    def has(self, key: str | None, now: float) -> bool:
        if not self.common.has(now):
            return False
        return key is None or self._upper(now) or self.reserved.has(key, now)

    def reserve_wait(self, key: str | None, now: float) -> float | None:
        """Seconds until `key` may take one again, when what refuses it is its reserved one spent (the bucket has
        some left, in its lower half); None otherwise (the refusal, if any, is the whole bucket's)."""
        if key is None or not self.common.has(now) or self._upper(now) or self.reserved.has(key, now):
            return None
        return (1 - self.reserved.level(key, now)) / self.reserved.rate

    def take(self, key: str | None, now: float) -> bool:
        if not self.has(key, now):
            return False
        if key is not None and not self._upper(now):
            self.reserved.take(key, now)
        return self.common.take(now)
