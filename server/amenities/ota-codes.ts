/**
 * The amenity catalogue, seeded from the OpenTravel Alliance code lists the industry exchanges amenities in:
 * HAC (Hotel Amenity Code, property level) and RMA (Room Amenity Type, unit level). This is a subset of
 * commonly used codes with their official OTA English names (OTA 2014B wording); the German, French and
 * Spanish names are our translations. Codes are stable: partners map them 1:1 to OTA messages.
 *
 * Parametric amenities carry value-list options (for example parking: free or paid, on site or off site).
 * `types` limits an amenity to property types (GET /property-types ids); absent means every type.
 */
type Names = readonly [en: string, de: string, fr: string, es: string];

export interface OptionSpec {
  key: string;
  names: Names;
  values: readonly { code: string; names: Names }[];
}

export interface AmenitySpec {
  list: 'HAC' | 'RMA';
  code: number;
  group: string;
  names: Names;
  options?: readonly OptionSpec[];
  types?: readonly number[];
}

/** A value-list option; `values` maps each value code to its names, in the order they are offered. */
const option = (key: string, names: Names, values: Record<string, Names>): OptionSpec => ({
  key,
  names,
  values: Object.entries(values).map(([code, valueNames]) => ({ code, names: valueNames })),
});
const CHARGE = option('charge', ['Charge', 'Kosten', 'Tarif', 'Coste'], {
  free: ['Free', 'Kostenlos', 'Gratuit', 'Gratis'],
  paid: ['Surcharge', 'Gegen Gebühr', 'Payant', 'De pago'],
});
const PARKING_LOCATION = option('location', ['Location', 'Lage', 'Emplacement', 'Ubicación'], {
  on_site: ['On site', 'Auf dem Gelände', 'Sur place', 'En el establecimiento'],
  off_site: ['Nearby', 'In der Nähe', 'À proximité', 'Cerca'],
});
const SEASON = option('season', ['Season', 'Saison', 'Saison', 'Temporada'], {
  all_year: ['All year', 'Ganzjährig', "Toute l'année", 'Todo el año'],
  seasonal: ['Seasonal', 'Saisonal', 'Saisonnier', 'De temporada'],
});
const HOTELS = [1, 6] as const;

export const PROPERTY_GROUPS: Record<string, Names> = {
  general: ['General', 'Allgemein', 'Général', 'General'],
  services: ['Services', 'Services', 'Services', 'Servicios'],
  food_drink: ['Food and drink', 'Essen und Trinken', 'Restauration', 'Comida y bebida'],
  wellness: ['Wellness and leisure', 'Wellness und Freizeit', 'Bien-être et loisirs', 'Bienestar y ocio'],
  parking_transport: [
    'Parking and transport',
    'Parken und Transport',
    'Parking et transport',
    'Aparcamiento y transporte',
  ],
  business: ['Business and events', 'Business und Veranstaltungen', 'Affaires et événements', 'Negocios y eventos'],
  family: ['Family', 'Familie', 'Famille', 'Familia'],
  accessibility: ['Accessibility', 'Barrierefreiheit', 'Accessibilité', 'Accesibilidad'],
};

export const UNIT_GROUPS: Record<string, Names> = {
  beds: ['Beds', 'Betten', 'Lits', 'Camas'],
  bathroom: ['Bathroom', 'Badezimmer', 'Salle de bains', 'Baño'],
  comfort: ['Comfort', 'Komfort', 'Confort', 'Comodidad'],
  media: ['Media and technology', 'Medien und Technik', 'Médias et technologie', 'Multimedia y tecnología'],
  kitchen: ['Kitchen', 'Küche', 'Cuisine', 'Cocina'],
  view_outdoor: ['View and outdoor space', 'Aussicht und Außenbereich', 'Vue et extérieur', 'Vistas y exterior'],
  accessibility: ['Accessibility', 'Barrierefreiheit', 'Accessibilité', 'Accesibilidad'],
};

/** An amenity of one OTA code list: its code, group, names and any options or type limits. */
const ofList =
  (list: AmenitySpec['list']) =>
  (code: number, group: string, names: Names, extra: Partial<AmenitySpec> = {}): AmenitySpec => ({
    list,
    code,
    group,
    names,
    ...extra,
  });
const hac = ofList('HAC');
const rma = ofList('RMA');

export const HOTEL_AMENITIES: readonly AmenitySpec[] = [
  hac(1, 'general', ['24-hour front desk', '24-Stunden-Rezeption', 'Réception 24h/24', 'Recepción 24 horas']),
  hac(5, 'general', ['Air conditioning', 'Klimaanlage', 'Climatisation', 'Aire acondicionado']),
  hac(33, 'general', ['Elevators', 'Aufzüge', 'Ascenseurs', 'Ascensores']),
  hac(103, 'general', [
    'Multilingual staff',
    'Mehrsprachiges Personal',
    'Personnel multilingue',
    'Personal multilingüe',
  ]),
  hac(7, 'services', ['ATM/Cash machine', 'Geldautomat', 'Distributeur de billets', 'Cajero automático']),
  hac(22, 'services', ['Concierge desk', 'Concierge', 'Conciergerie', 'Conserjería'], { types: HOTELS }),
  hac(26, 'services', ['Currency exchange', 'Geldwechsel', 'Bureau de change', 'Cambio de divisas']),
  hac(58, 'services', ['Laundry/Valet service', 'Wäscheservice', 'Service de blanchisserie', 'Servicio de lavandería']),
  hac(78, 'services', ['Safe deposit box', 'Schließfach', 'Coffre-fort', 'Caja de seguridad']),
  hac(91, 'services', ['Tour/sightseeing desk', 'Ausflugsschalter', 'Bureau d’excursions', 'Mostrador de excursiones']),
  hac(96, 'services', ['Dry cleaning', 'Chemische Reinigung', 'Nettoyage à sec', 'Limpieza en seco']),
  hac(100, 'services', ['Wakeup service', 'Weckdienst', 'Service de réveil', 'Servicio de despertador']),
  hac(106, 'services', ['Bell staff/porter', 'Gepäckträger', 'Bagagiste', 'Botones'], { types: HOTELS }),
  hac(76, 'food_drink', ['Restaurant', 'Restaurant', 'Restaurant', 'Restaurante']),
  hac(77, 'food_drink', ['Room service', 'Zimmerservice', 'Service en chambre', 'Servicio de habitaciones']),
  hac(165, 'food_drink', ['Lounges/bars', 'Lounges/Bars', 'Salons/bars', 'Salones/bares']),
  hac(35, 'wellness', ['Exercise gym', 'Fitnessraum', 'Salle de sport', 'Gimnasio']),
  hac(54, 'wellness', ['Indoor pool', 'Hallenbad', 'Piscine couverte', 'Piscina cubierta']),
  hac(66, 'wellness', ['Outdoor pool', 'Freibad', 'Piscine extérieure', 'Piscina al aire libre'], {
    options: [SEASON],
  }),
  hac(55, 'wellness', ['Jacuzzi', 'Whirlpool', 'Jacuzzi', 'Jacuzzi']),
  hac(61, 'wellness', ['Massage services', 'Massagen', 'Massages', 'Servicio de masajes'], { options: [CHARGE] }),
  hac(79, 'wellness', ['Sauna', 'Sauna', 'Sauna', 'Sauna'], { options: [CHARGE] }),
  hac(84, 'wellness', ['Spa', 'Spa', 'Spa', 'Spa']),
  hac(16, 'wellness', ['Casino', 'Kasino', 'Casino', 'Casino'], { types: HOTELS }),
  hac(68, 'parking_transport', ['Parking', 'Parkplatz', 'Parking', 'Aparcamiento'], {
    options: [CHARGE, PARKING_LOCATION],
  }),
  hac(53, 'parking_transport', ['Indoor parking', 'Tiefgarage', 'Parking couvert', 'Aparcamiento cubierto']),
  hac(97, 'parking_transport', ['Valet parking', 'Parkservice', 'Voiturier', 'Aparcacoches']),
  hac(41, 'parking_transport', [
    'Free airport shuttle',
    'Kostenloser Flughafentransfer',
    'Navette aéroport gratuite',
    'Traslado gratuito al aeropuerto',
  ]),
  hac(15, 'parking_transport', ['Car rental desk', 'Autovermietung', 'Location de voitures', 'Alquiler de coches']),
  hac(24, 'business', ['Conference facilities', 'Konferenzräume', 'Salles de conférence', 'Salas de conferencias'], {
    types: HOTELS,
  }),
  hac(105, 'business', ['Banquet facilities', 'Bankettsäle', 'Salles de banquet', 'Salones de banquetes'], {
    types: HOTELS,
  }),
  hac(104, 'business', ['Wedding services', 'Hochzeitsservice', 'Services de mariage', 'Servicios de bodas']),
  hac(8, 'family', ['Baby sitting', 'Babysitting', 'Baby-sitting', 'Canguro']),
  hac(70, 'family', ['Playground', 'Spielplatz', 'Aire de jeux', 'Parque infantil']),
  hac(47, 'accessibility', [
    'Accessible facilities',
    'Barrierefreie Einrichtungen',
    'Installations accessibles',
    'Instalaciones accesibles',
  ]),
  hac(101, 'accessibility', [
    'Wheelchair access',
    'Rollstuhlgerecht',
    'Accès en fauteuil roulant',
    'Acceso en silla de ruedas',
  ]),
];

export const ROOM_AMENITIES: readonly AmenitySpec[] = [
  rma(58, 'beds', ['King bed', 'Kingsize-Bett', 'Lit king size', 'Cama extragrande']),
  rma(86, 'beds', ['Queen bed', 'Queensize-Bett', 'Lit queen size', 'Cama de matrimonio grande']),
  rma(33, 'beds', ['Double beds', 'Doppelbetten', 'Lits doubles', 'Camas dobles']),
  rma(113, 'beds', ['Twin bed', 'Einzelbetten', 'Lits jumeaux', 'Camas individuales']),
  rma(102, 'beds', ['Sofa bed', 'Schlafsofa', 'Canapé-lit', 'Sofá cama']),
  rma(26, 'beds', ['Cribs', 'Kinderbetten', 'Lits bébé', 'Cunas']),
  rma(91, 'beds', ['Rollaway bed', 'Zustellbett', "Lit d'appoint", 'Cama supletoria']),
  rma(85, 'bathroom', ['Private bathroom', 'Eigenes Badezimmer', 'Salle de bains privative', 'Baño privado']),
  rma(13, 'bathroom', ['Bathtub', 'Badewanne', 'Baignoire', 'Bañera']),
  rma(142, 'bathroom', ['Shower', 'Dusche', 'Douche', 'Ducha']),
  rma(50, 'bathroom', ['Hairdryer', 'Haartrockner', 'Sèche-cheveux', 'Secador de pelo']),
  rma(10, 'bathroom', ['Bathrobe', 'Bademantel', 'Peignoir', 'Albornoz']),
  rma(11, 'bathroom', ['Bathroom amenities', 'Pflegeprodukte', 'Articles de toilette', 'Artículos de aseo']),
  rma(16, 'bathroom', ['Bidet', 'Bidet', 'Bidet', 'Bidé']),
  rma(2, 'comfort', ['Air conditioning', 'Klimaanlage', 'Climatisation', 'Aire acondicionado']),
  rma(69, 'comfort', ['Minibar', 'Minibar', 'Minibar', 'Minibar']),
  rma(92, 'comfort', ['Safe', 'Safe', 'Coffre-fort', 'Caja fuerte']),
  rma(19, 'comfort', ['Coffee/Tea maker', 'Kaffee-/Teezubereiter', 'Machine à café/thé', 'Cafetera/tetera']),
  rma(28, 'comfort', ['Desk', 'Schreibtisch', 'Bureau', 'Escritorio']),
  rma(55, 'comfort', ['Iron', 'Bügeleisen', 'Fer à repasser', 'Plancha']),
  rma(74, 'comfort', ['Non-smoking', 'Nichtraucher', 'Non-fumeurs', 'No fumadores']),
  rma(144, 'comfort', [
    'Soundproofed room',
    'Schallisoliertes Zimmer',
    'Chambre insonorisée',
    'Habitación insonorizada',
  ]),
  rma(157, 'comfort', ['Ceiling fan', 'Deckenventilator', 'Ventilateur de plafond', 'Ventilador de techo']),
  rma(140, 'comfort', ['Pets allowed', 'Haustiere erlaubt', 'Animaux acceptés', 'Se admiten mascotas'], {
    options: [CHARGE],
  }),
  rma(
    123,
    'media',
    ['Wireless internet connection', 'WLAN', 'Connexion Internet sans fil', 'Conexión inalámbrica a internet'],
    { options: [CHARGE] },
  ),
  rma(251, 'media', ['TV', 'Fernseher', 'Télévision', 'Televisión']),
  rma(210, 'media', [
    'Satellite television',
    'Satellitenfernsehen',
    'Télévision par satellite',
    'Televisión por satélite',
  ]),
  rma(107, 'media', ['Telephone', 'Telefon', 'Téléphone', 'Teléfono']),
  rma(59, 'kitchen', ['Kitchen', 'Küche', 'Cuisine', 'Cocina']),
  rma(61, 'kitchen', ['Kitchenette', 'Küchenzeile', 'Kitchenette', 'Cocina americana']),
  rma(68, 'kitchen', ['Microwave', 'Mikrowelle', 'Micro-ondes', 'Microondas']),
  rma(88, 'kitchen', ['Refrigerator', 'Kühlschrank', 'Réfrigérateur', 'Nevera']),
  rma(32, 'kitchen', ['Dishwasher', 'Geschirrspüler', 'Lave-vaisselle', 'Lavavajillas']),
  rma(7, 'view_outdoor', ['Balcony/Lanai/Terrace', 'Balkon/Terrasse', 'Balcon/terrasse', 'Balcón/terraza']),
  rma(224, 'view_outdoor', ['Ocean view', 'Meerblick', 'Vue sur la mer', 'Vistas al mar']),
  rma(223, 'view_outdoor', ['Mountain view', 'Bergblick', 'Vue sur la montagne', 'Vistas a la montaña']),
  rma(245, 'view_outdoor', ['Private pool', 'Privatpool', 'Piscine privée', 'Piscina privada']),
  rma(41, 'view_outdoor', ['Fireplace', 'Kamin', 'Cheminée', 'Chimenea']),
  rma(48, 'accessibility', [
    'Grab bars in bathroom',
    'Haltegriffe im Bad',
    'Barres d’appui dans la salle de bains',
    'Barras de apoyo en el baño',
  ]),
];
