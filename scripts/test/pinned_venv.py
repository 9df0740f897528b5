"""A virtual environment of the project's own with pinned packages, installed from a wheel cache:
only the first run on a machine reaches PyPI, later runs install offline. Used by the checks that
read our output back with an independent library (Schemathesis, fhir.resources)."""
import shutil
import subprocess
import sys


def ensure(venv, requirements, wheels, name, say):
    """The venv's python (a Path), with `requirements` installed; made anew when they changed.
    `name` says what is fetched when the cache lacks a wheel; exits in words when PyPI is out of reach."""
    python = venv / "bin" / "python"
    stamp = venv / "installed.txt"
    wanted = requirements.read_text()
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    if venv.exists():
        shutil.rmtree(venv)
    venv.parent.mkdir(parents=True, exist_ok=True)
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    offline = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index",
               "--find-links", str(wheels), "-r", str(requirements)]
    if subprocess.run(offline, capture_output=True).returncode != 0:
        say(f"henter {name} fra PyPI til {wheels} (første gang) …")
        fetch = subprocess.run([str(python), "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                                "--dest", str(wheels), "-r", str(requirements)], capture_output=True, text=True)
        if fetch.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            sys.stderr.write(fetch.stderr[-2000:])
            sys.exit(f"{name} kunne ikke hentes fra PyPI, og {wheels} har ikke alle hjulene. "
                     f"Koble til nettet og kjør igjen (bare første gang trengs PyPI). "
                     f"({name} could not be fetched from PyPI and the wheel cache lacks some: "
                     f"connect to the network and run again; only the first run needs PyPI.)")
        subprocess.run(offline, check=True)
    stamp.write_text(wanted)
    return python
