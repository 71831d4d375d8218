# slabsim: transactions/s. Edit and re-run: gnuplot metric.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'metric.png'
set termoption noenhanced
set datafile missing '?'
set grid
set key outside right top
set linetype 1 lc rgb '#1f77b4' lw 1.5
set linetype 2 lc rgb '#ff7f0e' lw 1.5
set linetype 3 lc rgb '#2ca02c' lw 1.5
set linetype 4 lc rgb '#d62728' lw 1.5
set linetype 5 lc rgb '#9467bd' lw 1.5
set linetype 6 lc rgb '#8c564b' lw 1.5
set linetype 7 lc rgb '#e377c2' lw 1.5
set linetype 8 lc rgb '#17becf' lw 1.5
set linetype 9 lc rgb '#bcbd22' lw 1.5
set linetype 10 lc rgb '#7f7f7f' lw 1.5
set linetype cycle 10
set title "oltp-irq: oltp\nwarmup_ms=20 duration_ms=50 (3 runs a point: mean and 95% CI)"
set xlabel "machine"
set ylabel "transactions/s"
set yrange [0:*]
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
plot 'metric.dat' using 2:3:xtic(1) title "SLAB, spread", \
     'metric.dat' using 6:7 title "SLAB, submitter", \
     'metric.dat' using 10:11 title "SLUB 2.6.25, spread", \
     'metric.dat' using 14:15 title "SLUB 2.6.25, submitter", \
     'metric.dat' using 18:19 title "SLUB 3.2, spread", \
     'metric.dat' using 22:23 title "SLUB 3.2, submitter", \
     'metric.dat' using 26:27 title "SLQB, spread", \
     'metric.dat' using 30:31 title "SLQB, submitter"
