# slabsim: CPU time spinning on locks (%). Edit and re-run: gnuplot lock-wait.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'lock-wait.png'
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
set title "designs-hackbench: hackbench 100 process\nloops=500 sample=auto (2 runs a point: the mean, and the range of the runs)"
set xlabel "machine"
set ylabel "CPU time spinning on locks (%)"
set yrange [0:*]
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -30
plot 'lock-wait.dat' using 2:4:5:xtic(1) title "SLAB", \
     'lock-wait.dat' using 6:8:9 title "SLUB 2.6.26", \
     'lock-wait.dat' using 10:12:13 title "SLUB 3.2", \
     'lock-wait.dat' using 14:16:17 title "SLQB", \
     'lock-wait.dat' using 18:20:21 title "magazines", \
     'lock-wait.dat' using 22:24:25 title "magazines, 100 ms update", \
     'lock-wait.dat' using 26:28:29 title "SLUB 7.0 sheaves"
