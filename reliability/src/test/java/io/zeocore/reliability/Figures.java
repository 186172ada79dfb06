package io.zeocore.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The suite's figures: every trial-counting test records one line (what was tried, how often, how many failed and what
 * counted as a failure) <em>before</em> asserting, and the report is written to {@code RELIABILITY.md} when the test
 * session closes (registered as a {@link LauncherSessionListener}). Figures are counts, never timings, so the committed
 * file only changes when a count does.
 */
public final class Figures implements LauncherSessionListener {

  /** One figure. */
  record Figure(String section, String name, long trials, long failures, String failureMeans) {}

  private static final List<Figure> FIGURES = new ArrayList<>();
  private static final List<String> NOTES = new ArrayList<>();

  /** Trials multiply by {@code -Dreliability.scale=N} (default 1: the CI run, a few minutes on 2 cores). */
  public static int scaled(int trials) {
    int scale = Integer.getInteger("reliability.scale", 1);
    return Math.max(1, trials * Math.max(1, scale));
  }

  /** Records a figure; call it before asserting that {@code failures} is zero. */
  public static synchronized void record(String section, String name, long trials, long failures,
      String failureMeans) {
    FIGURES.removeIf(figure -> figure.section().equals(section) && figure.name().equals(name));
    FIGURES.add(new Figure(section, name, trials, failures, failureMeans));
  }

  /** Records that a section could not run here (for example PostgreSQL unreachable), with the reason. */
  public static synchronized void skipped(String section, String reason) {
    String note = section + ": skipped — " + reason;
    if (!NOTES.contains(note)) {
      NOTES.add(note);
    }
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    write();
  }

  static synchronized void write() {
    String target = System.getProperty("reliability.report");
    if (target == null || FIGURES.isEmpty()) {
      return;
    }
    Path report = Path.of(target);
    Map<String, List<Figure>> sections = new TreeMap<>();
    for (Figure figure : FIGURES) {
      sections.computeIfAbsent(figure.section(), s -> new ArrayList<>()).add(figure);
    }
    StringBuilder text = new StringBuilder();
    text.append("# Reliability figures\n\n");
    text.append("Written by the `reliability` module on every `mvn verify` (and so by `.ci/run`): each figure is"
        + " asserted (the build fails when a guarantee breaks) and recorded here. Counts only, no timings. Trials at scale "
        + Integer.getInteger("reliability.scale", 1) + " (`-Dreliability.scale=N` multiplies them for local runs)."
        + " A run without PostgreSQL skips the PostgreSQL figures (CI requires PostgreSQL).\n\n");
    long totalTrials = 0;
    long totalFailures = 0;
    for (Map.Entry<String, List<Figure>> section : sections.entrySet()) {
      text.append("## ").append(section.getKey()).append("\n\n");
      text.append("| Figure | Trials | Failures | What counted as a failure |\n|---|---:|---:|---|\n");
      List<Figure> figures = new ArrayList<>(section.getValue());
      figures.sort(Comparator.comparing(Figure::name));
      for (Figure figure : figures) {
        text.append("| ").append(figure.name()).append(" | ").append(figure.trials()).append(" | ")
            .append(figure.failures()).append(" | ").append(figure.failureMeans()).append(" |\n");
        totalTrials += figure.trials();
        totalFailures += figure.failures();
      }
      text.append('\n');
    }
    if (!NOTES.isEmpty()) {
      text.append("## Not run here\n\n");
      NOTES.stream().sorted().forEach(note -> text.append("- ").append(note).append('\n'));
      text.append('\n');
    }
    text.append("Total: ").append(totalTrials).append(" trials, ").append(totalFailures).append(" failures.\n");
    try {
      Files.writeString(report, text.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
