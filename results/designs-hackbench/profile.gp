# slabsim: profile: share of CPU time by kernel symbol, per point. Edit and re-run: gnuplot profile.gp (in this folder)
set terminal pngcairo size 1000,600 font ',10'
set output 'profile.png'
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
set title "designs-hackbench: hackbench 100 process (mean of 2 replicates)"
set ylabel 'share of all CPU time (%)'
set yrange [0:100]
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -45 font ',8'
set label 1 'first 60 of 63 points' at graph 0.01, graph 0.97
plot for [i=2:10] 'profile.dat' using i:xtic(1) title columnheader(i)
