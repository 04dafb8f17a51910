/**
 * Word lists for the synthetic funding corpus (bench/funding-corpus.ts). Real Spanish and English
 * grant vocabulary, most frequent first: the generator draws from them with Zipf-like weights, so a
 * handful of words (ayudas, subvenciones, support, innovation) match a large share of the corpus and
 * a long tail matches a few calls each, as in the real BDNS and EU portal data. Derived forms, place
 * names and a pool of invented rare words (project acronyms, species) lengthen the tail to several
 * thousand distinct words; bench/funding-corpus.ts builds them from these stems deterministically.
 */

/** Spanish function words: drawn between content words, so phrases and stopword-heavy text are realistic. */
export const ES_STOP = [
  'de', 'la', 'el', 'para', 'y', 'en', 'los', 'las', 'del', 'a', 'por', 'con', 'al', 'que', 'su', 'sus',
  'se', 'o', 'un', 'una', 'como', 'entre', 'sobre', 'durante', 'mediante', 'sin', 'cuyo', 'así',
];

export const EN_STOP = [
  'the', 'of', 'and', 'for', 'to', 'in', 'on', 'with', 'a', 'an', 'by', 'from', 'at', 'as', 'its', 'their',
  'or', 'into', 'towards', 'through', 'under', 'between', 'across', 'within', 'this', 'that', 'which',
];

/** Spanish content words, most frequent first (accents as published; search folds them). */
export const ES_CONTENT = [
  'ayudas', 'subvenciones', 'convocatoria', 'proyectos', 'programa', 'actividades', 'entidades', 'año',
  'concesión', 'desarrollo', 'bases', 'reguladoras', 'extracto', 'fomento', 'régimen', 'concurrencia',
  'competitiva', 'destinadas', 'dirigidas', 'ejercicio', 'financiación', 'investigación', 'innovación',
  'empresas', 'municipios', 'ayuntamiento', 'comunidad', 'servicios', 'sociales', 'social', 'personas',
  'empleo', 'formación', 'cultura', 'cultural', 'deporte', 'deportivas', 'educación', 'juventud', 'igualdad',
  'mujeres', 'medio', 'ambiente', 'energía', 'renovables', 'eficiencia', 'energética', 'digital',
  'transformación', 'digitalización', 'agricultura', 'ganadería', 'pesca', 'rural', 'turismo', 'comercio',
  'industria', 'vivienda', 'rehabilitación', 'movilidad', 'sostenible', 'transporte', 'salud', 'sanitaria',
  'discapacidad', 'dependencia', 'cooperación', 'internacional', 'economía', 'circular', 'residuos', 'agua',
  'patrimonio', 'histórico', 'artístico', 'música', 'teatro', 'cine', 'audiovisual', 'libro', 'lectura',
  'bibliotecas', 'becas', 'estudiantes', 'universidad', 'universidades', 'doctorado', 'contratos',
  'predoctorales', 'postdoctorales', 'investigadores', 'pymes', 'autónomos', 'emprendimiento', 'creación',
  'contratación', 'desempleadas', 'jóvenes', 'mayores', 'inmigrantes', 'inclusión', 'pobreza', 'exclusión',
  'asociaciones', 'fundaciones', 'federaciones', 'clubes', 'eventos', 'festivales', 'equipamiento',
  'infraestructuras', 'obras', 'inversiones', 'mejora', 'modernización', 'plan', 'recuperación',
  'resiliencia', 'mecanismo', 'fondos', 'europeos', 'línea', 'extraordinaria', 'urgente', 'emergencia',
  'daños', 'incendios', 'inundaciones', 'sequía', 'sector', 'agrario', 'agroalimentario', 'forestal',
  'montes', 'caza', 'regadío', 'explotaciones', 'agrarias', 'cooperativas', 'consejería', 'diputación',
  'provincial', 'dirección', 'general', 'ministerio', 'secretaría', 'estado', 'instituto', 'agencia',
  'consorcio', 'cabildo', 'insular', 'comarca', 'mancomunidad', 'entidad', 'local', 'locales', 'públicas',
  'privadas', 'ánimo', 'lucro', 'beneficiarios', 'solicitudes', 'plazo', 'presentación', 'resolución',
  'orden', 'decreto', 'acuerdo', 'anuncio', 'modificación', 'ampliación', 'crédito', 'presupuestario',
  'importe', 'cuantía', 'máxima', 'gastos', 'subvencionables', 'subvencionable', 'subvención',
  'subvencionada', 'justificación', 'pago', 'anticipado', 'nominativa', 'directa', 'premios', 'concurso',
  'certamen', 'galardones', 'reconocimiento', 'trayectoria', 'científica', 'tecnológica', 'tecnología',
  'conocimiento', 'transferencia', 'startups', 'aceleración', 'internacionalización', 'exportación',
  'promoción', 'ferias', 'misiones', 'comerciales', 'artesanía', 'hostelería', 'restauración', 'ocio',
  'espectáculos', 'artes', 'escénicas', 'danza', 'museos', 'exposiciones', 'archivos', 'edición',
  'traducción', 'literaria', 'idiomas', 'lengua', 'catalán', 'euskera', 'gallego', 'valenciano', 'cooficial',
  'escuelas', 'colegios', 'alumnado', 'profesorado', 'centros', 'docentes', 'comedor', 'escolar',
  'transporte', 'material', 'libros', 'texto', 'infantil', 'primaria', 'secundaria', 'bachillerato',
  'profesional', 'dual', 'prácticas', 'titulados', 'universitarios', 'máster', 'erasmus', 'intercambio',
  'voluntariado', 'ciudadana', 'participación', 'asociacionismo', 'vecinal', 'barrios', 'urbana',
  'regeneración', 'accesibilidad', 'barreras', 'arquitectónicas', 'ascensores', 'edificios', 'fachadas',
  'aislamiento', 'térmico', 'autoconsumo', 'fotovoltaica', 'solar', 'eólica', 'biomasa', 'geotermia',
  'hidrógeno', 'almacenamiento', 'baterías', 'vehículo', 'eléctrico', 'recarga', 'puntos', 'bicicleta',
  'peatonal', 'calidad', 'aire', 'ruido', 'biodiversidad', 'espacios', 'naturales', 'protegidos', 'fauna',
  'flora', 'especies', 'invasoras', 'humedales', 'costas', 'litoral', 'marino', 'acuicultura', 'flota',
  'pesquera', 'lonjas', 'puertos', 'carreteras', 'caminos', 'abastecimiento', 'saneamiento', 'depuración',
  'alumbrado', 'público', 'telecomunicaciones', 'banda', 'ancha', 'conectividad', 'ciberseguridad',
  'inteligencia', 'artificial', 'datos', 'robótica', 'automatización', 'industria', 'manufactura',
  'cadena', 'valor', 'competitividad', 'productividad', 'clúster', 'polígonos', 'industriales', 'suelo',
  'naves', 'maquinaria', 'equipos', 'adquisición', 'renovación', 'flotas', 'taxis', 'autobuses',
  'mayores', 'envejecimiento', 'activo', 'soledad', 'cuidados', 'cuidadoras', 'familias', 'numerosas',
  'monoparentales', 'conciliación', 'natalidad', 'infancia', 'adolescencia', 'menores', 'tutelados',
  'violencia', 'género', 'víctimas', 'terrorismo', 'refugiados', 'asilo', 'acogida', 'integración',
  'minorías', 'gitana', 'drogodependencias', 'adicciones', 'prevención', 'sida', 'cáncer', 'enfermedades',
  'raras', 'pacientes', 'hospitales', 'atención', 'primaria', 'farmacia', 'salud', 'mental', 'suicidio',
  'nutrición', 'alimentación', 'consumo', 'consumidores', 'comercio', 'justo', 'solidario', 'desarrollo',
  'países', 'empobrecidos', 'humanitaria', 'acción', 'exterior', 'memoria', 'democrática', 'histórica',
  'fosas', 'exhumaciones', 'religiosas', 'cofradías', 'fiestas', 'populares', 'tradiciones', 'folclore',
  'bandas', 'coros', 'orquestas', 'conservatorios', 'cinematografía', 'cortometrajes', 'largometrajes',
  'series', 'animación', 'videojuegos', 'producción', 'distribución', 'exhibición', 'salas', 'prensa',
  'medios', 'comunicación', 'periodismo', 'radio', 'televisión', 'publicidad', 'marketing', 'marca',
  'reto', 'demográfico', 'despoblación', 'repoblación', 'pueblos', 'pedanías', 'núcleos', 'dispersos',
  'climático', 'cambio', 'adaptación', 'mitigación', 'emisiones', 'carbono', 'descarbonización',
  'transición', 'justa', 'minería', 'carbón', 'comarcas', 'mineras', 'reindustrialización', 'perte',
  'vinculado', 'agroalimentaria', 'naval', 'aeroespacial', 'microelectrónica', 'semiconductores',
  'salud', 'vanguardia', 'economía', 'social', 'cuidados', 'nueva', 'española', 'estratégico',
  'recuperación', 'transformación', 'next', 'generation', 'feder', 'fse', 'feader', 'feampa', 'interreg',
  'leader', 'horizonte', 'europa', 'europeo', 'nacional', 'estatal', 'autonómico', 'municipal',
];

/** Spanish stems and endings that build the derived tail (fomentar, fomentando, ...). */
export const ES_STEMS = [
  'financi', 'subvencion', 'invest', 'innov', 'desarroll', 'form', 'emple', 'contrat', 'promov', 'fortalec',
  'impuls', 'apoy', 'mejor', 'moderniz', 'digitaliz', 'rehabilit', 'conserv', 'proteg', 'gestion', 'evalu',
  'planific', 'coordin', 'cooper', 'integr', 'incorpor', 'dinamiz', 'revitaliz', 'sensibiliz', 'difund',
  'divulg', 'capacit', 'acompañ', 'asesor', 'tutoriz', 'mentoriz', 'certific', 'acredit', 'homolog',
  'regul', 'administr', 'organiz', 'celebr', 'particip', 'colabor', 'export', 'import', 'produc', 'comercializ',
  'transform', 'reutiliz', 'recicl', 'valoriz', 'restaur', 'reform', 'ampli', 'adecu', 'equip', 'dot',
  'sustitu', 'instal', 'constru', 'urbaniz', 'pavimen', 'ilumin', 'climatiz', 'aisl', 'reduc', 'optimiz',
  'automatiz', 'robotiz', 'monitoriz', 'analiz', 'diagnostic', 'prevent', 'atend', 'cuid', 'acog', 'incluy',
  'emprend', 'crec', 'consolid', 'diversific', 'especializ', 'internacionaliz', 'vertebr', 'cohesion',
];
export const ES_ENDINGS = [
  'ación', 'aciones', 'ar', 'ando', 'ado', 'ada', 'ados', 'adas', 'able', 'ables', 'amiento', 'amientos',
  'ativo', 'ativa', 'ativos', 'ativas', 'adora', 'adores', 'emos', 'ería',
];

/** Places: provinces, autonomous communities and towns (towns are also generated from parts). */
export const ES_PLACES = [
  'Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Zaragoza', 'Málaga', 'Murcia', 'Palma', 'Bilbao',
  'Alicante', 'Córdoba', 'Valladolid', 'Vigo', 'Gijón', 'Hospitalet', 'Vitoria', 'Coruña', 'Granada',
  'Elche', 'Oviedo', 'Badalona', 'Cartagena', 'Terrassa', 'Jerez', 'Sabadell', 'Móstoles', 'Santander',
  'Almería', 'Pamplona', 'Burgos', 'Albacete', 'Castellón', 'Logroño', 'Badajoz', 'Salamanca', 'Huelva',
  'Lleida', 'Tarragona', 'León', 'Cádiz', 'Jaén', 'Ourense', 'Girona', 'Lugo', 'Cáceres', 'Guadalajara',
  'Toledo', 'Pontevedra', 'Palencia', 'Ciudad', 'Real', 'Zamora', 'Ávila', 'Cuenca', 'Huesca', 'Segovia',
  'Soria', 'Teruel', 'Andalucía', 'Aragón', 'Asturias', 'Baleares', 'Canarias', 'Cantabria', 'Castilla',
  'Mancha', 'Cataluña', 'Extremadura', 'Galicia', 'Rioja', 'Navarra', 'Euskadi', 'Ceuta', 'Melilla',
  'Tenerife', 'Lanzarote', 'Fuerteventura', 'Menorca', 'Ibiza', 'Formentera', 'Gipuzkoa', 'Bizkaia', 'Araba',
];
export const TOWN_HEADS = [
  'Villa', 'Torre', 'Castro', 'Puebla', 'Fuente', 'Val', 'Monte', 'Alcalá', 'Navas', 'Cabeza', 'Peña',
  'Quintana', 'Rivas', 'Aldea', 'Campo', 'Arroyo', 'Mora', 'Olmeda', 'Cañada', 'Vega', 'Sierra', 'Llano',
  'Hoya', 'Cuevas', 'Alba', 'Palacios', 'Benia', 'Alme', 'Albo', 'Calata',
];
export const TOWN_TAILS = [
  'nueva', 'rrubia', 'mayor', 'blanca', 'seca', 'fría', 'real', 'verde', 'alta', 'baja', 'llana', 'hermosa',
  'franca', 'mediana', 'rroya', 'lobos', 'nares', 'durán', 'jimena', 'sancho', 'marín', 'gudo', 'rrasa',
  'cázar', 'tomé', 'llosa', 'dolid', 'castillo',
];

/** Phrases that recur as units (so phrase queries find them), Spanish then English; most frequent first. */
export const ES_TOPICS = [
  'concurrencia competitiva', 'sin ánimo de lucro', 'eficiencia energética', 'transformación digital',
  'economía circular', 'energías renovables', 'cambio climático', 'reto demográfico', 'igualdad de oportunidades',
  'violencia de género', 'formación profesional', 'patrimonio histórico', 'inclusión social',
  'servicios sociales', 'medio rural', 'desarrollo local', 'comercio minorista', 'movilidad sostenible',
  'salud mental', 'personas mayores', 'personas con discapacidad', 'artes escénicas', 'industria cultural',
  'investigación científica', 'transferencia de conocimiento', 'cooperación internacional', 'vivienda asequible',
  'rehabilitación de edificios', 'gestión de residuos', 'calidad del aire', 'espacios naturales',
  'memoria democrática', 'banda ancha', 'inteligencia artificial', 'vehículo eléctrico', 'autoconsumo fotovoltaico',
];
export const EN_TOPICS = [
  'research and innovation', 'green transition', 'digital transformation', 'climate neutrality',
  'circular economy', 'renewable energy', 'artificial intelligence', 'clean hydrogen', 'zero emission',
  'capacity building', 'small and medium enterprises', 'open science', 'cultural heritage',
  'public health', 'food systems', 'biodiversity protection', 'smart cities', 'critical raw materials',
  'quantum technologies', 'high performance computing', 'social inclusion', 'skills development',
];

/** English content words, most frequent first. */
export const EN_CONTENT = [
  'support', 'innovation', 'research', 'action', 'actions', 'projects', 'development', 'digital', 'green',
  'transition', 'climate', 'energy', 'call', 'topic', 'programme', 'european', 'union', 'member', 'states',
  'partners', 'consortium', 'applicants', 'proposals', 'funding', 'grant', 'grants', 'budget', 'expected',
  'outcomes', 'impact', 'scope', 'objectives', 'activities', 'renewable', 'hydrogen', 'battery', 'batteries',
  'materials', 'advanced', 'health', 'cancer', 'disease', 'diseases', 'data', 'artificial', 'intelligence',
  'cloud', 'cybersecurity', 'quantum', 'space', 'mobility', 'transport', 'zero', 'emission', 'cities',
  'circular', 'economy', 'biodiversity', 'ocean', 'oceans', 'water', 'food', 'farming', 'agriculture',
  'soil', 'forest', 'forests', 'culture', 'creative', 'heritage', 'media', 'education', 'training', 'skills',
  'youth', 'citizens', 'democracy', 'security', 'resilience', 'infrastructure', 'networks', 'network',
  'pilot', 'demonstration', 'deployment', 'scale', 'industrial', 'manufacturing', 'semiconductors',
  'startups', 'smes', 'partnership', 'coordination', 'cooperation', 'international', 'third', 'countries',
  'capacity', 'building', 'ecosystems', 'ecosystem', 'platform', 'platforms', 'open', 'science',
  'researchers', 'doctoral', 'fellowships', 'proof', 'concept', 'frontier', 'excellence', 'widening',
  'participation', 'twinning', 'teaming', 'challenge', 'challenges', 'mission', 'missions', 'adaptation',
  'mitigation', 'sustainable', 'sustainability', 'smart', 'communities', 'regions', 'regional', 'urban',
  'rural', 'social', 'inclusion', 'equality', 'gender', 'migration', 'border', 'management', 'customs',
  'fisheries', 'maritime', 'aquaculture', 'blue', 'nuclear', 'fusion', 'fission', 'radiation', 'safety',
  'technologies', 'technology', 'solutions', 'systems', 'system', 'models', 'modelling', 'tools',
  'methods', 'approaches', 'framework', 'standards', 'standardisation', 'interoperability', 'governance',
  'policy', 'policies', 'evidence', 'monitoring', 'assessment', 'indicators', 'knowledge', 'transfer',
  'uptake', 'market', 'value', 'chains', 'supply', 'competitiveness', 'autonomy', 'strategic', 'sovereignty',
  'robotics', 'automation', 'photonics', 'microelectronics', 'computing', 'exascale', 'supercomputing',
  'connectivity', 'broadband', 'satellite', 'earth', 'observation', 'copernicus', 'galileo', 'launchers',
  'aviation', 'aircraft', 'maritime', 'shipping', 'rail', 'road', 'vehicles', 'electric', 'charging',
  'buildings', 'renovation', 'heating', 'cooling', 'grids', 'storage', 'solar', 'wind', 'offshore',
  'geothermal', 'bioenergy', 'biofuels', 'carbon', 'capture', 'emissions', 'pollution', 'air', 'noise',
  'chemicals', 'plastics', 'textiles', 'waste', 'recycling', 'bioeconomy', 'biobased', 'pharmaceuticals',
  'vaccines', 'antimicrobial', 'resistance', 'pandemic', 'preparedness', 'clinical', 'trials', 'patients',
  'care', 'ageing', 'mental', 'wellbeing', 'nutrition', 'diets', 'consumers', 'fairness', 'trust',
  'disinformation', 'journalism', 'news', 'audiovisual', 'film', 'music', 'literature', 'translation',
  'museums', 'archives', 'libraries', 'schools', 'teachers', 'universities', 'alliances', 'vocational',
  'apprenticeships', 'lifelong', 'learning', 'volunteering', 'solidarity', 'humanitarian', 'aid', 'crisis',
  'refugees', 'asylum', 'integration', 'employment', 'jobs', 'workers', 'labour', 'poverty', 'housing',
  'justice', 'rights', 'rule', 'law', 'anti', 'corruption', 'fraud', 'terrorism', 'radicalisation',
  'police', 'crime', 'cybercrime', 'critical', 'infrastructures', 'disaster', 'risk', 'reduction', 'floods',
  'wildfires', 'drought', 'heatwaves', 'forecasting', 'early', 'warning', 'protection', 'civil',
];
export const EN_STEMS = [
  'innovat', 'develop', 'integrat', 'demonstrat', 'digitalis', 'decarbonis', 'optimis', 'coordinat',
  'validat', 'implement', 'accelerat', 'commercialis', 'standardis', 'certif', 'monitor', 'evaluat',
  'regenerat', 'modernis', 'mobilis', 'transform', 'electrif', 'automat', 'personalis', 'stabilis',
  'synchronis', 'harmonis', 'localis', 'industrialis', 'capitalis', 'revitalis', 'minimis', 'maximis',
];
export const EN_ENDINGS = [
  'ion', 'ions', 'e', 'ed', 'ing', 'ive', 'ively', 'or', 'ors', 'ation', 'ations', 'able', 'ability', 'er', 'ers',
];

/** Syllables for invented rare words: acronyms of EU projects, species, local place names. */
export const SYLLABLES = [
  'ba', 'be', 'bi', 'bo', 'bru', 'ca', 'ce', 'ci', 'co', 'cu', 'da', 'de', 'di', 'do', 'dra', 'fa', 'fe', 'fi',
  'fo', 'ga', 'ge', 'gi', 'go', 'gue', 'ja', 'je', 'jo', 'la', 'le', 'li', 'lo', 'lu', 'ma', 'me', 'mi', 'mo',
  'mu', 'na', 'ne', 'ni', 'no', 'ña', 'pa', 'pe', 'pi', 'po', 'pra', 'que', 'qui', 'ra', 're', 'ri', 'ro',
  'sa', 'se', 'si', 'so', 'ta', 'te', 'ti', 'to', 'tra', 'va', 've', 'vi', 'xa', 'xe', 'ya', 'za', 'ze', 'zo',
  'lá', 'ré', 'tí', 'nó', 'rú', 'kor', 'tex', 'lux', 'nex', 'fly', 'tron', 'gen', 'bio', 'net', 'sys',
];

export const PROGRAMMES_EU = [
  'Horizon Europe', 'Digital Europe Programme', 'LIFE Programme', 'Erasmus+', 'Connecting Europe Facility',
  'EU4Health', 'Creative Europe', 'Interreg', 'Single Market Programme', 'European Defence Fund',
  'Innovation Fund', 'Citizens, Equality, Rights and Values', 'Justice Programme', 'Internal Security Fund',
  'European Maritime, Fisheries and Aquaculture Fund', 'Euratom Research and Training', 'European Solidarity Corps',
];
export const PROGRAMME_CODES: Record<string, string> = {
  'Horizon Europe': 'HORIZON', 'Digital Europe Programme': 'DIGITAL', 'LIFE Programme': 'LIFE',
  'Erasmus+': 'ERASMUS', 'Connecting Europe Facility': 'CEF', EU4Health: 'EU4H', 'Creative Europe': 'CREA',
  Interreg: 'INTERREG', 'Single Market Programme': 'SMP', 'European Defence Fund': 'EDF',
  'Innovation Fund': 'INNOVFUND', 'Citizens, Equality, Rights and Values': 'CERV', 'Justice Programme': 'JUST',
  'Internal Security Fund': 'ISF', 'European Maritime, Fisheries and Aquaculture Fund': 'EMFAF',
  'Euratom Research and Training': 'EURATOM', 'European Solidarity Corps': 'ESC',
};
export const PROGRAMMES_ES = [
  'Plan de Recuperación, Transformación y Resiliencia', 'Plan Estatal de Investigación Científica, Técnica y de Innovación',
  'FEDER 2021-2027', 'FSE+ 2021-2027', 'FEADER', 'PERTE VEC', 'PERTE Agroalimentario', 'Kit Digital',
  'Programa MOVES III', 'Programa PREE', 'Plan Corresponsables', 'Programa de Desarrollo Rural',
];
export const FUNDERS_ES = [
  'Ministerio de Ciencia, Innovación y Universidades', 'Ministerio de Cultura', 'Ministerio de Industria y Turismo',
  'Ministerio para la Transición Ecológica y el Reto Demográfico', 'Ministerio de Agricultura, Pesca y Alimentación',
  'Ministerio de Derechos Sociales, Consumo y Agenda 2030', 'Ministerio de Igualdad', 'Ministerio de Educación, Formación Profesional y Deportes',
  'Agencia Estatal de Investigación', 'Centro para el Desarrollo Tecnológico y la Innovación', 'Instituto de Salud Carlos III',
  'Junta de Andalucía', 'Generalitat de Catalunya', 'Comunidad de Madrid', 'Generalitat Valenciana', 'Xunta de Galicia',
  'Junta de Castilla y León', 'Gobierno de Aragón', 'Principado de Asturias', 'Gobierno de Canarias', 'Gobierno Vasco',
  'Región de Murcia', 'Junta de Extremadura', 'Gobierno de Navarra', 'Junta de Comunidades de Castilla-La Mancha',
  'Govern de les Illes Balears', 'Gobierno de Cantabria', 'Gobierno de La Rioja',
];
export const REGIONS_ES = [
  'Andalucía', 'Cataluña', 'Comunidad de Madrid', 'Comunitat Valenciana', 'Galicia', 'Castilla y León', 'Aragón',
  'Principado de Asturias', 'Canarias', 'País Vasco', 'Región de Murcia', 'Extremadura', 'Comunidad Foral de Navarra',
  'Castilla-La Mancha', 'Illes Balears', 'Cantabria', 'La Rioja', 'Ceuta', 'Melilla',
];
export const FUNDERS_EU = [
  'European Research Executive Agency', 'European Health and Digital Executive Agency',
  'European Climate, Infrastructure and Environment Executive Agency', 'European Innovation Council and SMEs Executive Agency',
  'European Education and Culture Executive Agency', 'European Research Council Executive Agency',
  'Directorate-General for Research and Innovation', 'Directorate-General for Communications Networks, Content and Technology',
];
export const OTHER_COUNTRIES = ['PT', 'FR', 'IT', 'DE', 'BE', 'NL', 'PL', 'AT', 'GR', 'IE', 'SE', 'FI', 'CZ', 'RO'];

export const DEADLINE_TEXTS = [
  'Hasta agotamiento del crédito presupuestario', 'Ver bases reguladoras', 'Durante todo el año',
  'Un mes desde la publicación del extracto', 'Abierta de forma permanente',
];
