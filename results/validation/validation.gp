set terminal pngcairo size 1680,1080
set output 'validation.png'
set multiplot layout 3,4 title 'slabsim validate: simulated against published (blue: acceptance bands; orange, beside: 95% CI over the seeds; red x: outside its band)'
set logscale xy
set format x '%g'
set format y '%g'
set xlabel 'published'
set ylabel 'simulated'
unset key
set title 'C1'
set xrange [3.60505:487.5]
set yrange [3.60505:487.5]
plot x lc rgb 'gray', 'validation.dat' index 0 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 0 using ($1*1.06065):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 0 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'C2'
set xrange [21.9333:2365.35]
set yrange [21.9333:2365.35]
plot x lc rgb 'gray', 'validation.dat' index 1 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 1 using ($1*1.05778):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 1 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'C3'
set xrange [4.26:320.1]
set yrange [4.26:320.1]
plot x lc rgb 'gray', 'validation.dat' index 2 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 2 using ($1*1.0532):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 2 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'C4'
set xrange [0.000116208:0.00272998]
set yrange [0.000116208:0.00272998]
plot x lc rgb 'gray', 'validation.dat' index 3 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 3 using ($1*1.03861):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 3 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V1'
set xrange [0.396667:1.81434]
set yrange [0.396667:1.81434]
plot x lc rgb 'gray', 'validation.dat' index 4 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 4 using ($1*1.01841):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 4 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V2'
set xrange [0.6358:3.16347]
set yrange [0.6358:3.16347]
plot x lc rgb 'gray', 'validation.dat' index 5 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 5 using ($1*1.01944):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 5 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V3'
set xrange [0.600021:1.86638]
set yrange [0.600021:1.86638]
plot x lc rgb 'gray', 'validation.dat' index 6 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 6 using ($1*1.01371):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 6 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V4'
set xrange [488.133:6089.85]
set yrange [488.133:6089.85]
plot x lc rgb 'gray', 'validation.dat' index 7 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 7 using ($1*1.03075):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 7 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V5'
set xrange [0.619154:1.71604]
set yrange [0.619154:1.71604]
plot x lc rgb 'gray', 'validation.dat' index 8 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 8 using ($1*1.01231):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 8 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V6'
set xrange [0.650393:1.52342]
set yrange [0.650393:1.52342]
plot x lc rgb 'gray', 'validation.dat' index 9 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 9 using ($1*1.01027):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 9 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V7'
set xrange [0.558384:17.0764]
set yrange [0.558384:17.0764]
plot x lc rgb 'gray', 'validation.dat' index 10 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 10 using ($1*1.0419):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 10 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
set title 'V8'
set xrange [0.0797333:154.506]
set yrange [0.0797333:154.506]
plot x lc rgb 'gray', 'validation.dat' index 11 using 1:2:3:4 with yerrorbars pt 7 ps 0.6 lc rgb '#0060a0', '' index 11 using ($1*1.09508):2:5:6 with yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index 11 using 1:($7 > 0 ? $2 : 1/0) with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'
unset multiplot
