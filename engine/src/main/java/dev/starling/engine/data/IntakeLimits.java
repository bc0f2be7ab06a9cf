package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What data statements may take from outside the catalog, and put there: the files LOAD reads and
 * COPY writes, only under the load directories (a relative name under the first of them), never
 * through a link that leads out of them; and the scale factors GENERATE makes, up to a largest. A
 * server's clients are bound so; an embedding program may leave both open ({@link #UNBOUNDED}).
 */
public final class IntakeLimits {
    /** Any file the process can read, any scale factor. */
    public static final IntakeLimits UNBOUNDED = new IntakeLimits(null, Double.POSITIVE_INFINITY);

    /** Absolute and normalized; null: anywhere. */
    private final List<Path> loadDirectories;
    private final double maxScaleFactor;

    private IntakeLimits(List<Path> loadDirectories, double maxScaleFactor) {
        this.loadDirectories = loadDirectories;
        this.maxScaleFactor = maxScaleFactor;
    }

    /** LOAD under {@code loadDirectories} only (relative ones against the working directory), GENERATE up to {@code maxScaleFactor}. */
    public static IntakeLimits of(List<Path> loadDirectories, double maxScaleFactor) {
        if (loadDirectories.isEmpty()) {
            throw new IllegalArgumentException("at least one directory to load from");
        }
        if (!(maxScaleFactor > 0)) {
            throw new IllegalArgumentException("the largest scale factor must be positive, not " + maxScaleFactor);
        }
        return new IntakeLimits(loadDirectories.stream().map(d -> d.toAbsolutePath().normalize()).toList(), maxScaleFactor);
    }

    /**
     * The file LOAD reads for the name it was given: a relative name under the first load
     * directory, an absolute one as it is, either with every link followed, which must lie under
     * a load directory. A name outside them is refused before the file system is asked anything
     * about it, so that refusals say nothing about which files exist there.
     */
    public Path loadable(Path named) {
        if (loadDirectories == null) {
            return named;
        }
        Path file = (named.isAbsolute() ? named : loadDirectories.get(0).resolve(named)).normalize();
        if (loadDirectories.stream().noneMatch(file::startsWith)) {
            throw outside(named);
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (NoSuchFileException e) {
            throw new StarlingSqlException("LOAD finds no file " + named + " under " + describe());
        } catch (IOException e) {
            throw new StarlingSqlException("LOAD cannot read " + named + ": " + e.getMessage());
        }
        for (Path dir : loadDirectories) {
            try {
                if (real.startsWith(dir.toRealPath())) {
                    return real;
                }
            } catch (IOException e) {
                // a load directory that does not exist holds nothing
            }
        }
        throw outside(named);
    }

    /**
     * The file COPY writes for the name it was given: a relative name under the first load
     * directory, an absolute one as it is, in a directory that exists and, its links followed,
     * lies under a load directory. The name itself may be a file there already, which is replaced.
     */
    public Path writable(Path named) {
        if (loadDirectories == null) {
            return named;
        }
        Path file = (named.isAbsolute() ? named : loadDirectories.get(0).resolve(named)).normalize();
        if (loadDirectories.stream().noneMatch(file::startsWith) || file.getFileName() == null) {
            throw outside("COPY writes", named);
        }
        Path parent;
        try {
            parent = file.getParent().toRealPath();
        } catch (IOException e) {
            throw new StarlingSqlException("COPY finds no directory for " + named + " under " + describe());
        }
        for (Path dir : loadDirectories) {
            try {
                if (parent.startsWith(dir.toRealPath())) {
                    return parent.resolve(file.getFileName());
                }
            } catch (IOException e) {
                // a load directory that does not exist holds nothing
            }
        }
        throw outside("COPY writes", named);
    }

    /** Checks that GENERATE may make {@code scaleFactor}. */
    public void checkScaleFactor(double scaleFactor) {
        if (scaleFactor > maxScaleFactor) {
            throw new StarlingSqlException("GENERATE makes scale factors up to " + maxScaleFactor
                    + " here (generate.max_scale_factor), not " + scaleFactor);
        }
    }

    private StarlingSqlException outside(Path named) {
        return outside("LOAD reads", named);
    }

    private StarlingSqlException outside(String what, Path named) {
        return new StarlingSqlException(what + " only files under " + describe() + " (load.allowed_dirs); "
                + named + " is not");
    }

    private String describe() {
        return loadDirectories.stream().map(Path::toString).collect(Collectors.joining(", "));
    }
}
