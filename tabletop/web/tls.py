"""The table's own certificate, so a phone may use its camera on the camera page.

A browser lets a page use the camera only in a secure context: ``https://``, or the machine's
own ``localhost``. A phone on the Wi-Fi opening ``http://192.168.1.20:8000/camera`` gets no
camera at all. So a live table also serves its pages over HTTPS on a second port, with a
self-signed certificate made once by ``openssl`` and kept (private) beside the journal; the phone
warns once that the certificate is the table's own, and the host accepts it
(docs/session.md, "The camera page").

>>> subject_names("192.168.1.20")
'IP:192.168.1.20,IP:127.0.0.1,DNS:localhost'
"""

from __future__ import annotations

import ipaddress
import os
import pathlib
import shutil
import subprocess


class NoCertificate(Exception):
    """No certificate could be made (no ``openssl``, or it failed): the sentence says why."""


def subject_names(address: str) -> str:
    """The names the certificate is good for: the table's address, and this machine's own."""
    names = ["IP:127.0.0.1", "DNS:localhost"]
    try:
        ipaddress.ip_address(address)
        kind = "IP"
    except ValueError:
        kind = "DNS"
    first = f"{kind}:{address}"
    return ",".join([first] + [n for n in names if n != first])


def certificate(folder: pathlib.Path, address: str) -> tuple[pathlib.Path, pathlib.Path]:
    """The certificate and key files for ``address`` in ``folder`` (made there the first time,
    and again when the address changed); :class:`NoCertificate` when they cannot be made."""
    folder.mkdir(parents=True, exist_ok=True)
    safe = "".join(ch if ch.isalnum() else "-" for ch in address)
    cert, key = folder / f"table-{safe}.crt", folder / f"table-{safe}.key"
    if cert.is_file() and key.is_file():
        return cert, key
    openssl = shutil.which("openssl")
    if openssl is None:
        raise NoCertificate("openssl is not installed, so the table cannot make its certificate for phones' cameras")
    old = os.umask(0o077)                          # the key is private from the start
    try:
        done = subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825",
                               "-subj", "/CN=Tabletop table", "-addext", f"subjectAltName={subject_names(address)}",
                               "-keyout", str(key), "-out", str(cert)],
                              capture_output=True, text=True, timeout=60, check=False)
    finally:
        os.umask(old)
    if done.returncode != 0:
        raise NoCertificate(f"openssl could not make the table's certificate: {done.stderr.strip()[-200:]}")
    return cert, key
